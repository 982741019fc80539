import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { webhookEvents } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import { buildPayloadObjects } from "./build-payloads";

/** A message event's payload carries the message's tags, as GET shows them (docs/webhooks.md#payload-version-1). */
describe("webhook payloads and tags", () => {
  it("email.* payloads hold data.message.tags; [] for an untagged message", async () => {
    const ws = await createTestWorkspace();
    const body = { from: "hello@example.com", to: "ada@example.org", subject: "Hi", bodyHtml: "<p>Hi</p>" };
    const tagged = await callApi("/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...body, tags: ["plan:pro", "region:eu"] },
    });
    const plain = await callApi("/v1/email_messages", { authorization: ws.authorization, body });
    const db = await getDb();
    const events = await db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.workspaceId, ws.workspace.id))
      .orderBy(asc(webhookEvents.seq));
    expect(events.map((event) => event.type)).toEqual(["email.created", "email.created"]);
    const payloads = await buildPayloadObjects(db, events);
    const tagsOf = (messageId: string) => {
      const event = events.find((candidate) => candidate.emailMessageId === messageId)!;
      const payload = payloads.get(event.id) as { data: { message: { id: string; tags: string[] } } };
      expect(payload.data.message.id).toBe(messageId);
      return payload.data.message.tags;
    };
    expect(tagsOf(tagged.json.data.id)).toEqual(["plan:pro", "region:eu"]);
    expect(tagsOf(plain.json.data.id)).toEqual([]);
  });
});
