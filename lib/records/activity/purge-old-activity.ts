import "server-only";
import { lt, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { activityLogs } from "@/db/schema";
import { env } from "@/lib/foundation/env";
import { log } from "@/lib/foundation/log";
import { notOnLegalHold } from "@/lib/records/retention/legal-hold";

const DAY_MS = 24 * 60 * 60 * 1000;

/** In slices, so a large backlog never holds one long transaction; a workspace on legal hold keeps its log. */
export async function purgeOldActivity(options: { now?: Date } = {}): Promise<{ purged: number }> {
  const db = await getDb();
  const cutoff = new Date((options.now ?? new Date()).getTime() - env().ACTIVITY_RETENTION_DAYS * DAY_MS);
  let purged = 0;
  for (;;) {
    const deleted = await db
      .delete(activityLogs)
      .where(
        sql`${activityLogs.id} in (select ${activityLogs.id} from ${activityLogs} where ${lt(activityLogs.createdAt, cutoff)} and ${notOnLegalHold(activityLogs.workspaceId)} limit 5000)`,
      )
      .returning({ id: activityLogs.id });
    purged += deleted.length;
    if (deleted.length < 5000) break;
  }
  if (purged > 0) log.info("old activity purged", { purged, cutoff: cutoff.toISOString() });
  return { purged };
}
