import "server-only";
import { desc, gte, lt, max } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workerHeartbeats } from "@/db/schema";
import { now as clockNow } from "@/lib/foundation/clock";

/** A row not stamped for a day belongs to a process long gone (a container's hostname changes per deploy). */
const FORGET_AFTER_MS = 24 * 3600 * 1000;

/** Stamps one worker process as alive (the caller decides that it is), and forgets processes gone for a day. */
export async function recordWorkerHeartbeat(id: string, startedAt: Date, now: Date = clockNow()): Promise<void> {
  const db = await getDb();
  await db
    .insert(workerHeartbeats)
    .values({ id, startedAt, seenAt: now })
    .onConflictDoUpdate({ target: workerHeartbeats.id, set: { startedAt, seenAt: now } });
  await db.delete(workerHeartbeats).where(lt(workerHeartbeats.seenAt, new Date(now.getTime() - FORGET_AFTER_MS)));
}

/** When any worker process on this database last said it was alive; null when none ever did (or for a day). */
export async function lastWorkerHeartbeat(): Promise<Date | null> {
  const [row] = await (await getDb()).select({ seenAt: max(workerHeartbeats.seenAt) }).from(workerHeartbeats);
  return row?.seenAt ?? null;
}

/** Worker processes stamped at or after `since`, most recently seen first (the Instance page's "workers seen"). */
export async function workerHeartbeatsSince(since: Date): Promise<{ id: string; startedAt: Date; seenAt: Date }[]> {
  const db = await getDb();
  return db
    .select()
    .from(workerHeartbeats)
    .where(gte(workerHeartbeats.seenAt, since))
    .orderBy(desc(workerHeartbeats.seenAt), workerHeartbeats.id);
}
