import "server-only";
import { and, isNull, lt, notInArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { walkOldestFirst } from "@/db/oldest-first";
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
  const where = and(isNull(m.contentPurgedAt), lt(m.createdAt, cutoff), notInArray(m.status, ["PENDING", "PAUSED"]))!;
  const purged = await walkOldestFirst(
    { db, table: m, createdAt: m.createdAt, id: m.id, where, chunk: PURGE_CHUNK },
    async (ids) =>
      (await db.transaction((tx) => eraseStoredContent(tx, ids, { subject: false, skipWaiting: true }))).length,
  );
  if (purged > 0) log.info("message content purged", { purged, retentionDays: env().RETENTION_DAYS });
  return { purged };
}
