import "server-only";
import { and, asc, isNull, lt, notInArray, or, eq, gt } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { env } from "@/lib/foundation/env";
import { log } from "@/lib/foundation/log";
import { eraseStoredContent } from "./erase-content";

const PURGE_CHUNK = 1000;

/**
 * Retention: content of messages older than RETENTION_DAYS goes, messages still waiting are kept. Walks the partial
 * retention index oldest first, one short transaction per 1,000 messages.
 */
export async function purgeMessageContent(options: { now?: Date } = {}): Promise<{ purged: number }> {
  const db = await getDb();
  const m = emailMessages;
  const cutoff = new Date((options.now ?? new Date()).getTime() - env().RETENTION_DAYS * 24 * 3600 * 1000);
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
          notInArray(m.status, ["PENDING", "PAUSED"]),
          after
            ? or(gt(m.createdAt, after.createdAt), and(eq(m.createdAt, after.createdAt), gt(m.id, after.id)))
            : undefined,
        ),
      )
      .orderBy(asc(m.createdAt), asc(m.id))
      .limit(PURGE_CHUNK);
    if (rows.length === 0) break;
    const ids = rows.map((row) => row.id);
    const erased = await db.transaction((tx) => eraseStoredContent(tx, ids, { subject: false, skipWaiting: true }));
    purged += erased.length;
    after = rows[rows.length - 1];
    if (rows.length < PURGE_CHUNK) break;
  }
  if (purged > 0) log.info("message content purged", { purged, retentionDays: env().RETENTION_DAYS });
  return { purged };
}
