import "server-only";
import { and, asc, inArray, isNull, lt, or } from "drizzle-orm";
import { getDb } from "@/db/client";
import { attachments } from "@/db/schema";
import { env } from "@/lib/foundation/env";
import { log } from "@/lib/foundation/log";
import { notOnLegalHold } from "@/lib/records/retention/legal-hold";
import { getAttachmentStorage } from "./storage";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Retention (docs/api.md#decided-attachments), in batches: bytes first, so a storage failure leaves the record for the
 * next run. Safe to run concurrently and repeatedly. A workspace on legal hold keeps its uploads.
 */
export async function purgeExpiredAttachments(
  options: { now?: Date; batchSize?: number } = {},
): Promise<{ purged: number }> {
  const db = await getDb();
  const storage = await getAttachmentStorage();
  const cutoff = new Date((options.now ?? new Date()).getTime() - env().ATTACHMENT_RETENTION_DAYS * DAY_MS);
  const batchSize = options.batchSize ?? 200;
  const expiredWhere = and(
    or(lt(attachments.uploadedAt, cutoff), and(isNull(attachments.uploadedAt), lt(attachments.createdAt, cutoff))),
    notOnLegalHold(attachments.workspaceId),
  );
  let purged = 0;
  for (;;) {
    const expired = await db
      .select({ id: attachments.id, storageKey: attachments.storageKey })
      .from(attachments)
      .where(expiredWhere)
      .orderBy(asc(attachments.createdAt))
      .limit(batchSize);
    for (const attachment of expired) await storage.delete(attachment.storageKey);
    // Retention is at least a day and an upload URL lives an hour: none of these can be re-uploaded now.
    if (expired.length > 0)
      await db.delete(attachments).where(
        inArray(
          attachments.id,
          expired.map((attachment) => attachment.id),
        ),
      );
    purged += expired.length;
    if (expired.length < batchSize) break;
  }
  if (purged > 0) log.info("expired attachments purged", { purged, cutoff: cutoff.toISOString() });
  return { purged };
}
