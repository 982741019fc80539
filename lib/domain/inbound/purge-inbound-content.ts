import "server-only";
import { and, isNull, lt } from "drizzle-orm";
import { getDb } from "@/db/client";
import { walkOldestFirst } from "@/db/oldest-first";
import { inboundMessages } from "@/db/schema";
import { now as clockNow } from "@/lib/foundation/clock";
import { env } from "@/lib/foundation/env";
import { log } from "@/lib/foundation/log";
import { eraseInboundContent, removeAttachmentBytes } from "./erase-inbound-content";

const PURGE_CHUNK = 500;

/**
 * Retention, as for sent messages' bodies (RETENTION_DAYS): the content of inbound mail older than that goes, the
 * subject and envelope stay. Walks the partial retention index oldest first, one short transaction per chunk. "Now" is
 * the service clock's, so tests move it rather than back-date rows.
 */
export async function purgeInboundContent(options: { now?: Date } = {}): Promise<{ purged: number }> {
  const db = await getDb();
  const m = inboundMessages;
  const cutoff = new Date((options.now ?? clockNow()).getTime() - env().RETENTION_DAYS * 24 * 3600 * 1000);
  const purged = await walkOldestFirst(
    {
      db,
      table: m,
      createdAt: m.createdAt,
      id: m.id,
      where: and(isNull(m.contentPurgedAt), lt(m.createdAt, cutoff))!,
      chunk: PURGE_CHUNK,
    },
    async (ids) => {
      const erased = await db.transaction((tx) => eraseInboundContent(tx, ids, { subject: false }));
      await removeAttachmentBytes(erased.storageKeys);
      return erased.ids.length;
    },
  );
  if (purged > 0) log.info("inbound content purged", { purged, retentionDays: env().RETENTION_DAYS });
  return { purged };
}
