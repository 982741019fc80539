import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { inboundMessageRaw, inboundMessages } from "@/db/schema";
import { AppError } from "@/lib/foundation/errors";
import { notFoundOrPurged } from "@/lib/domain/messages/not-found-or-purged";
import { inboundAttachmentUrl } from "./attachment-url";
import { loadOriginalMessages } from "./original-messages";
import { serializeInboundMessage, type InboundMessageRow } from "./serialize-inbound-message";

/** Tenant-scoped: an unknown id and another workspace's id give the same 404 (410 past the retention window). */
export async function getInboundMessageOrThrow(
  workspaceId: string,
  id: string,
  db?: Executor,
): Promise<InboundMessageRow> {
  const executor = db ?? (await getDb());
  const [row] = await executor
    .select()
    .from(inboundMessages)
    .where(and(eq(inboundMessages.workspaceId, workspaceId), eq(inboundMessages.id, id)));
  if (!row) throw await notFoundOrPurged(executor, workspaceId, id, "Inbound message");
  return row;
}

/** GET /v1/inbound_messages/:id: every parsed field, its verdicts, the original message, signed attachment URLs. */
export async function getInboundMessageView(workspaceId: string, id: string, now = new Date()) {
  const db = await getDb();
  const row = await getInboundMessageOrThrow(workspaceId, id, db);
  const originals = await loadOriginalMessages(db, workspaceId, [row.originalMessageId]);
  return serializeInboundMessage(row, {
    originalMessage: row.originalMessageId ? (originals.get(row.originalMessageId) ?? null) : null,
    attachmentUrl: (attachment) => inboundAttachmentUrl({ inboundMessageId: row.id, attachmentId: attachment.id }, now),
  });
}

/** The original RFC 5322 bytes; 404 once erased or purged (the envelope stays, the bytes do not). */
export async function getInboundMessageRaw(workspaceId: string, id: string): Promise<Buffer> {
  const db = await getDb();
  const [row] = await db
    .select({ raw: inboundMessageRaw.raw })
    .from(inboundMessageRaw)
    .where(and(eq(inboundMessageRaw.workspaceId, workspaceId), eq(inboundMessageRaw.inboundMessageId, id)));
  if (row) return row.raw;
  const message = await getInboundMessageOrThrow(workspaceId, id, db);
  throw new AppError(
    "NOT_FOUND",
    `Inbound message ${message.id} has no raw bytes any more: its content was erased or purged.`,
    { param: "id" },
  );
}
