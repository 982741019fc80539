import "server-only";
import { inArray, isNull, and, ne, or, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { inboundMessageRaw, inboundMessages } from "@/db/schema";
import { getAttachmentStorage } from "@/lib/domain/attachments/storage";
import { now as clockNow } from "@/lib/foundation/clock";
import { log } from "@/lib/foundation/log";

/**
 * Removes what an inbound mail said: bodies, the stripped reply, headers, checks' details, the raw bytes and its
 * attachments' rows (their bytes: `removeAttachmentBytes`, after the commit). The envelope, addresses, verdicts,
 * thread and original stay, so threads and counts still add up. Returns the erased rows' attachment storage keys.
 */
export async function eraseInboundContent(
  db: Executor,
  ids: string[],
  options: { subject: boolean },
): Promise<{ ids: string[]; storageKeys: string[] }> {
  if (ids.length === 0) return { ids: [], storageKeys: [] };
  const m = inboundMessages;
  const now = clockNow();
  const before = await db
    .select({ id: m.id, attachments: m.attachments })
    .from(m)
    // An erase after retention still has the subject retention kept to remove.
    .where(
      and(
        inArray(m.id, ids),
        options.subject ? or(isNull(m.contentPurgedAt), ne(m.subject, "")) : isNull(m.contentPurgedAt),
      ),
    )
    .for("update");
  if (before.length === 0) return { ids: [], storageKeys: [] };
  const erasing = before.map((row) => row.id);
  await db
    .update(m)
    .set({
      textBody: null,
      htmlBody: null,
      strippedText: null,
      strippedSignature: null,
      headers: [],
      attachments: [],
      authDetails: {},
      ...(options.subject ? { subject: "" } : {}),
      contentPurgedAt: sql`coalesce(${m.contentPurgedAt}, ${now.toISOString()}::timestamptz)`,
      updatedAt: now,
    })
    .where(inArray(m.id, erasing));
  await db.delete(inboundMessageRaw).where(inArray(inboundMessageRaw.inboundMessageId, erasing));
  return { ids: erasing, storageKeys: before.flatMap((row) => row.attachments.map((a) => a.storageKey)) };
}

/**
 * The attachment storage is no database: its bytes go after the rows naming them are committed. A failure leaves
 * bytes nothing names (logged), never a row naming bytes that are gone.
 */
export async function removeAttachmentBytes(storageKeys: string[]): Promise<void> {
  if (storageKeys.length === 0) return;
  const storage = await getAttachmentStorage();
  for (const key of storageKeys) {
    await storage.delete(key).catch((error: unknown) => {
      log.warn("inbound attachment bytes not removed", { key, error: String(error) });
    });
  }
}
