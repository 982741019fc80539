import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { newId } from "@/lib/foundation/ids";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { getMessageDetail } from "./get-message-detail";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { createTemplate } from "@/lib/domain/templates/create-template";

const insertMessage = (workspaceId: string) =>
  insertTestMessage(workspaceId, {
    from: "Demo <hello@example.com>",
    bodyHtml: '<p>Hi <a href="https://example.org">there</a></p>',
    bodyText: "Hi there [https://example.org]",
    attachments: [{ name: "a.txt", contentType: "text/plain", size: 3, contentBase64: "YWJj" }],
    metadata: { order: 42 },
  });

describe("getMessageDetail", () => {
  it("returns every field and the timeline newest first", async () => {
    const { workspace } = await createTestWorkspace();
    const db = await getDb();
    const id = await insertMessage(workspace.id);
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    const base = { workspaceId: workspace.id, messageId: id };
    await recordEvent(db, { ...base, code: "EMAIL_MESSAGE_CREATED", message: "created", at: at(1) });
    await recordEvent(db, { ...base, code: "EMAIL_MESSAGE_RENDERED", message: "rendered", at: at(1) });
    await recordEvent(db, { ...base, code: "EMAIL_MESSAGE_SENT_PROVIDER_EVENT", message: "sent", at: at(2) });

    const detail = await getMessageDetail(workspace.id, id);
    expect(detail?.message).toMatchObject({
      id,
      status: "SUCCEEDED",
      source: "API",
      serviceTemplateId: null,
      templateName: null,
      to: ["Ada <ada@example.org>"],
      from: "Demo <hello@example.com>",
      processedAt: at(1),
      sentAt: at(2),
      metadata: { order: 42 },
      attachments: [{ name: "a.txt", contentType: "text/plain", size: 3 }],
    });
    expect(detail?.message).not.toHaveProperty("workspaceId");
    expect(JSON.stringify(detail)).not.toContain("YWJj");
    expect(detail?.events.map((e) => e.code)).toEqual([
      "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
      "EMAIL_MESSAGE_RENDERED",
      "EMAIL_MESSAGE_CREATED",
    ]);
    expect(detail?.eventCount).toBe(3);

    const cut = await getMessageDetail(workspace.id, id, { eventLimit: 1 });
    expect(cut?.events).toHaveLength(1);
    expect(cut?.eventCount).toBe(3);
  });

  it("gives null for an unknown id, a malformed id and another workspace's message", async () => {
    const { workspace } = await createTestWorkspace();
    const { workspace: other } = await createTestWorkspace();
    const id = await insertMessage(other.id);
    expect(await getMessageDetail(workspace.id, id)).toBeNull();
    expect(await getMessageDetail(workspace.id, newId("message"))).toBeNull();
    expect(await getMessageDetail(workspace.id, "not-an-id")).toBeNull();
    expect(await getMessageDetail(other.id, id)).not.toBeNull();
  });

  it("names the message's template, read in the message's workspace only", async () => {
    const { workspace } = await createTestWorkspace();
    const { workspace: other } = await createTestWorkspace();
    const template = await createTemplate({
      workspaceId: workspace.id,
      name: "Welcome",
      subject: "Hi",
      bodyHtml: "<p>Hi</p>",
    });
    const id = await insertTestMessage(workspace.id, { templateId: template.id });
    expect((await getMessageDetail(workspace.id, id))?.message).toMatchObject({
      serviceTemplateId: template.id,
      templateName: "Welcome",
    });
    // A template id of another workspace on a message (never written by the service) still reads no name.
    const foreign = await createTemplate({
      workspaceId: other.id,
      name: "Theirs",
      subject: "Hi",
      bodyHtml: "<p>Hi</p>",
    });
    const stray = await insertTestMessage(workspace.id, { templateId: foreign.id });
    expect((await getMessageDetail(workspace.id, stray))?.message.templateName).toBeNull();
  });
});
