import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { auditEvents, inboundMessageRaw, inboundMessages } from "@/db/schema";
import { getAttachmentStorage } from "@/lib/domain/attachments/storage";
import { purgeInboundContent } from "@/lib/domain/inbound/purge-inbound-content";
import { insertTestInboundMessage } from "@/lib/domain/inbound/testing";
import { inboundMessageErasedResource } from "@/lib/entry/api/openapi/resources-inbound-messages";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import { inboundReplyScenario, storedAttachment } from "@/lib/testing/inbound-scenario";

const DAY = 24 * 3600 * 1000;

async function storedBytes(key: string): Promise<boolean> {
  return (await (await getAttachmentStorage()).read(key).catch(() => null)) !== null;
}

describe("erasing received mail (DELETE /v1/inbound_messages/:id) and its retention", () => {
  it("erases subject, bodies, headers, raw bytes and attachment bytes, audited; the envelope and thread stay", async () => {
    const { ws, reply, threadId } = await inboundReplyScenario();
    const [attachment] = reply.attachments;
    expect(await storedBytes(attachment.storageKey)).toBe(true);

    const erased = await callApi(`/v1/inbound_messages/${reply.id}`, {
      method: "DELETE",
      authorization: ws.authorization,
    });
    expect(erased.status).toBe(200);
    expect(() => inboundMessageErasedResource.strict().parse(erased.json.data)).not.toThrow();
    expect(erased.json.data).toMatchObject({ id: reply.id, erased: true });

    const db = await getDb();
    const [row] = await db.select().from(inboundMessages).where(eq(inboundMessages.id, reply.id));
    expect(row).toMatchObject({ subject: "", textBody: null, strippedText: null, headers: [], attachments: [] });
    expect(row).toMatchObject({ fromAddress: "ada@example.org", threadId, recipient: reply.recipient });
    expect(await db.select().from(inboundMessageRaw).where(eq(inboundMessageRaw.inboundMessageId, reply.id))).toEqual(
      [],
    );
    expect(await storedBytes(attachment.storageKey)).toBe(false);

    const one = await callApi(`/v1/inbound_messages/${reply.id}`, { authorization: ws.authorization });
    expect(one.json.data).toMatchObject({ subject: "", strippedText: null, attachments: [] });
    expect(one.json.data.contentPurgedAt).toBe(erased.json.data.contentPurgedAt);
    const raw = await callApi(`/v1/inbound_messages/${reply.id}/raw`, { authorization: ws.authorization });
    expect(raw.status).toBe(404);
    expect(raw.json.error.message).toMatch(/erased or purged/);

    const again = await callApi(`/v1/inbound_messages/${reply.id}`, {
      method: "DELETE",
      authorization: ws.authorization,
    });
    expect(again.json.data).toEqual(erased.json.data);
    const audits = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.workspaceId, ws.workspace.id), eq(auditEvents.action, "inbound_message.erase")));
    expect(audits.map((audit) => audit.targetId)).toEqual([reply.id]);
  });

  it("404 for another workspace's mail, which stays whole", async () => {
    const { reply } = await inboundReplyScenario();
    const other = await createTestWorkspace();
    const foreign = await callApi(`/v1/inbound_messages/${reply.id}`, {
      method: "DELETE",
      authorization: other.authorization,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error).toMatchObject({ param: "id" });
    const [row] = await (await getDb()).select().from(inboundMessages).where(eq(inboundMessages.id, reply.id));
    expect(row.contentPurgedAt).toBeNull();
    expect(row.subject).toBe("Re: Your order");
  });

  it("retention purges content older than RETENTION_DAYS (30), attachment bytes too, and keeps the subject", async () => {
    const { workspace } = await createTestWorkspace();
    const now = new Date();
    const attachment = await storedAttachment(workspace.id);
    const old = await insertTestInboundMessage(workspace.id, {
      createdAt: new Date(now.getTime() - 31 * DAY),
      attachments: [attachment],
    });
    const recent = await insertTestInboundMessage(workspace.id, { createdAt: new Date(now.getTime() - 29 * DAY) });
    const { purged } = await purgeInboundContent({ now });
    expect(purged).toBeGreaterThanOrEqual(1);
    const db = await getDb();
    const [oldRow] = await db.select().from(inboundMessages).where(eq(inboundMessages.id, old.id));
    const [recentRow] = await db.select().from(inboundMessages).where(eq(inboundMessages.id, recent.id));
    expect(oldRow).toMatchObject({ subject: "A question", textBody: null, strippedText: null, attachments: [] });
    expect(oldRow.contentPurgedAt).not.toBeNull();
    expect(recentRow).toMatchObject({ textBody: expect.stringContaining("a question"), contentPurgedAt: null });
    expect(await storedBytes(attachment.storageKey)).toBe(false);
    expect((await purgeInboundContent({ now })).purged).toBe(0);
  });
});

describe("GET /v1/threads", () => {
  it("lists conversations newest first, filtered by participant and by the sent message they answer", async () => {
    const { ws, original, threadId } = await inboundReplyScenario();
    const all = await callApi("/v1/threads", { authorization: ws.authorization });
    expect(all.status).toBe(200);
    expect(all.json.data).toEqual([
      expect.objectContaining({
        id: threadId,
        type: "Thread",
        participants: expect.arrayContaining(["ada@example.org"]),
      }),
    ]);
    expect(all.json.data[0]).not.toHaveProperty("messages");
    const bySent = await callApi(`/v1/threads?emailMessageId=${original}`, { authorization: ws.authorization });
    expect(bySent.json.data.map((thread: { id: string }) => thread.id)).toEqual([threadId]);
    const byAddress = await callApi("/v1/threads?address=ADA@example.org", { authorization: ws.authorization });
    expect(byAddress.json.data.map((thread: { id: string }) => thread.id)).toEqual([threadId]);
    const nobody = await callApi("/v1/threads?address=nobody@example.org", { authorization: ws.authorization });
    expect(nobody.json.data).toEqual([]);
    const bad = await callApi("/v1/threads?address=two words", { authorization: ws.authorization });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ param: "address" });
    const other = await createTestWorkspace();
    const foreign = await callApi("/v1/threads", { authorization: other.authorization });
    expect(foreign.json.data).toEqual([]);
  });
});
