import "server-only";
import { lt, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { env } from "@/lib/foundation/env";
import { log } from "@/lib/foundation/log";
import { notOnLegalHold } from "@/lib/records/retention/legal-hold";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The only delete the audit log sees; in slices, so no long transaction; a workspace on legal hold keeps its log. */
export async function purgeOldAuditEvents(options: { now?: Date } = {}): Promise<{ purged: number }> {
  const db = await getDb();
  const cutoff = new Date((options.now ?? new Date()).getTime() - env().AUDIT_RETENTION_DAYS * DAY_MS);
  let purged = 0;
  for (;;) {
    const deleted = await db
      .delete(auditEvents)
      .where(
        sql`${auditEvents.id} in (select ${auditEvents.id} from ${auditEvents} where ${lt(auditEvents.createdAt, cutoff)} and ${notOnLegalHold(auditEvents.workspaceId)} limit 5000)`,
      )
      .returning({ id: auditEvents.id });
    purged += deleted.length;
    if (deleted.length < 5000) break;
  }
  if (purged > 0) log.info("old audit events purged", { purged, cutoff: cutoff.toISOString() });
  return { purged };
}
