import "server-only";
import { and, asc, eq, gt, isNull, lt, or } from "drizzle-orm";
import { getDb } from "@/db/client";
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
  let after: { createdAt: Date; id: string } | null = null;
  let purged = 0;
  for (;;) {
    const rows: Array<{ id: string; createdAt: Date }> = await db
      .select({ id: m.id, createdAt: m.createdAt })
      .from(m)
      .where(
        and(
          isNull(m.contentPurgedAt),
          lt(m.createdAt, cutoff),
          after
            ? or(gt(m.createdAt, after.createdAt), and(eq(m.createdAt, after.createdAt), gt(m.id, after.id)))
            : undefined,
        ),
      )
      .orderBy(asc(m.createdAt), asc(m.id))
      .limit(PURGE_CHUNK);
    if (rows.length === 0) break;
    const erased = await db.transaction((tx) =>
      eraseInboundContent(
        tx,
        rows.map((row) => row.id),
        { subject: false },
      ),
    );
    await removeAttachmentBytes(erased.storageKeys);
    purged += erased.ids.length;
    after = rows[rows.length - 1];
    if (rows.length < PURGE_CHUNK) break;
  }
  if (purged > 0) log.info("inbound content purged", { purged, retentionDays: env().RETENTION_DAYS });
  return { purged };
}
