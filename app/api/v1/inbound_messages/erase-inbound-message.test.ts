import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { auditEvents, inboundMessageRaw, inboundMessages } from "@/db/schema";
import { getAttachmentStorage } from "@/lib/domain/attachments/storage";
import { purgeInboundContent } from "@/lib/domain/inbound/purge-inbound-content";
import { insertTestInboundMessage } from "@/lib/domain/inbound/testing";
import { inboundMessageErasedResource } from "@/lib/entry/api/openapi/resources-inbound-messages";
import { setClock } from "@/lib/foundation/clock";
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
    const before = await callApi(`/v1/inbound_messages/${reply.id}`, { authorization: ws.authorization });
    const signed = new URL(before.json.data.attachments[0].url);
    expect((await callApi(signed.pathname + signed.search)).status).toBe(200);

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
    // A link signed before the erase still verifies, and says why the file is gone.
    const file = await callApi(signed.pathname + signed.search);
    expect(file.status).toBe(404);
    expect(file.json.error).toMatchObject({ code: "NOT_FOUND", param: "attachmentId" });
    expect(file.json.error.message).toMatch(/erased or purged/);

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

  it("retention purges content older than RETENTION_DAYS (30) once the clock has moved, attachment bytes too", async () => {
    const ws = await createTestWorkspace();
    const start = new Date();
    const attachment = await storedAttachment(ws.workspace.id);
    const old = await insertTestInboundMessage(ws.workspace.id, { createdAt: start, attachments: [attachment] });
    const recent = await insertTestInboundMessage(ws.workspace.id, { createdAt: new Date(start.getTime() + 2 * DAY) });
    await (
      await getDb()
    )
      .insert(inboundMessageRaw)
      .values({ inboundMessageId: old.id, workspaceId: ws.workspace.id, raw: Buffer.from("Subject: A question\r\n") });
    expect((await purgeInboundContent()).purged).toBe(0);

    const later = new Date(start.getTime() + 31 * DAY);
    setClock(() => later);
    try {
      expect((await purgeInboundContent()).purged).toBeGreaterThanOrEqual(1);
      const purged = await callApi(`/v1/inbound_messages/${old.id}`, { authorization: ws.authorization });
      expect(purged.json.data).toMatchObject({
        subject: "A question",
        text: null,
        strippedText: null,
        attachments: [],
        contentPurgedAt: later.toISOString(),
      });
      const raw = await callApi(`/v1/inbound_messages/${old.id}/raw`, { authorization: ws.authorization });
      expect(raw.status).toBe(404);
      expect(await storedBytes(attachment.storageKey)).toBe(false);
      const kept = await callApi(`/v1/inbound_messages/${recent.id}`, { authorization: ws.authorization });
      expect(kept.json.data).toMatchObject({ text: expect.stringContaining("a question"), contentPurgedAt: null });
      expect((await purgeInboundContent()).purged).toBe(0);
      // The list still counts the purged mail: only its content went.
      const list = await callApi("/v1/inbound_messages", { authorization: ws.authorization });
      expect(list.json.data.map((m: { id: string }) => m.id).sort()).toEqual([old.id, recent.id].sort());
      // Erasing a purged mail removes the subject retention kept, and keeps when the content went.
      const erased = await callApi(`/v1/inbound_messages/${old.id}`, {
        method: "DELETE",
        authorization: ws.authorization,
      });
      expect(erased.json.data).toEqual({ id: old.id, erased: true, contentPurgedAt: later.toISOString() });
      const after = await callApi(`/v1/inbound_messages/${old.id}`, { authorization: ws.authorization });
      expect(after.json.data).toMatchObject({ subject: "", contentPurgedAt: later.toISOString() });
    } finally {
      setClock(null);
    }
  });
});
