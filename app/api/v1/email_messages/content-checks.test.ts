import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessageLogs, emailMessages } from "@/db/schema";
import { createUnsubscribeGroup } from "@/lib/domain/contacts/create-unsubscribe-group";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import { useSettings } from "@/lib/testing/settings";

// CONTENT_CHECKS on every send (docs/deliverability.md#content-checks): off by default, warn notes the findings on
// the RENDERED event, block refuses content with an error finding and writes nothing.

afterEach(() => useSettings({ CONTENT_CHECKS: undefined }));

const PHISHY =
  '<p>Hi</p><img src="https://example.com/a.png"><a href="https://evil.example/login">www.bank.example</a>';

async function setup() {
  const ws = await createTestWorkspace();
  const send = (body: Record<string, unknown>) =>
    callApi("/v1/email_messages", {
      authorization: ws.authorization,
      body: { from: "hello@example.com", to: "ada@example.org", subject: "Hello", ...body },
    });
  const rendered = async (id: string) => {
    const [log] = await (
      await getDb()
    )
      .select()
      .from(emailMessageLogs)
      .where(and(eq(emailMessageLogs.emailMessageId, id), eq(emailMessageLogs.code, "EMAIL_MESSAGE_RENDERED")));
    return log.message;
  };
  const count = async () => (await getDb()).$count(emailMessages, eq(emailMessages.workspaceId, ws.workspace.id));
  return { ws, send, rendered, count };
}

describe("content checks on every send", () => {
  it("off by default: the content goes as it is, the timeline says nothing of it", async () => {
    const { send, rendered } = await setup();
    const answer = await send({ bodyHtml: PHISHY });
    expect(answer.status).toBe(201);
    expect(await rendered(answer.json.data.id)).not.toContain("Content checks");
  });

  it("warn: accepted, and the RENDERED event lists the errors and warnings", async () => {
    useSettings({ CONTENT_CHECKS: "warn" });
    const { send, rendered } = await setup();
    const answer = await send({ bodyHtml: PHISHY });
    expect(answer.status).toBe(201);
    expect(await rendered(answer.json.data.id)).toMatch(
      / Content checks: error link_text_mismatch, warning image_alt\.$/,
    );
  });

  it("block: an error finding is a 422 naming the field, nothing written; warnings alone pass", async () => {
    useSettings({ CONTENT_CHECKS: "block" });
    const { ws, send, count } = await setup();
    const before = await count();
    const refused = await send({ bodyHtml: PHISHY });
    expect(refused.status).toBe(422);
    expect(refused.json.error).toMatchObject({ code: "CONTENT_CHECK_FAILED", param: "bodyHtml" });
    expect(refused.json.error.message).toContain("A link shows bank.example but goes to evil.example");
    expect(await count()).toBe(before);

    const warned = await send({ subject: "x".repeat(80), bodyHtml: '<p>Hi <img src="a.png"></p>' });
    expect(warned.status).toBe(201);

    // Group mail from a template without {{ unsubscribeUrl }}: refused naming the template.
    await createUnsubscribeGroup({ workspaceId: ws.workspace.id, key: "news", name: "News" });
    const template = await ws.createTemplate({ subject: "News", bodyHtml: "<p>This week</p>" });
    const group = await send({ subject: undefined, from: undefined, templateId: template.id, groupKey: "news" });
    expect([group.status, group.json.error?.code, group.json.error?.param]).toEqual([
      422,
      "CONTENT_CHECK_FAILED",
      "templateId",
    ]);
    // Raw group mail gets its unsubscribe link appended: nothing to refuse.
    const raw = await send({ bodyHtml: "<p>This week</p>", groupKey: "news" });
    expect(raw.status).toBe(201);
  });
});
