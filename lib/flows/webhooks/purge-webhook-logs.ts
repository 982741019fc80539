import "server-only";
import { and, inArray, lt, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { webhookAttempts, webhookDeliveries, webhookEvents } from "@/db/schema";
import { env } from "@/lib/foundation/env";
import { notOnLegalHold } from "@/lib/records/retention/legal-hold";

/** Drops attempts, settled deliveries and feed events past WEBHOOK_LOG_RETENTION_DAYS; a pending delivery and its event stay, and a workspace on legal hold keeps its log. */
export async function purgeWebhookLogs(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - env().WEBHOOK_LOG_RETENTION_DAYS * 24 * 3600_000);
  const db = await getDb();
  const attempts = await db
    .delete(webhookAttempts)
    .where(and(lt(webhookAttempts.createdAt, cutoff), notOnLegalHold(webhookAttempts.workspaceId)))
    .returning({ id: webhookAttempts.id });
  const deliveries = await db
    .delete(webhookDeliveries)
    .where(
      and(
        lt(webhookDeliveries.createdAt, cutoff),
        inArray(webhookDeliveries.status, ["succeeded", "failed"]),
        notOnLegalHold(webhookDeliveries.workspaceId),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  const events = await db
    .delete(webhookEvents)
    .where(
      and(
        lt(webhookEvents.createdAt, cutoff),
        notOnLegalHold(webhookEvents.workspaceId),
        sql`not exists (select 1 from ${webhookDeliveries} d where d.event_id = ${webhookEvents.id} and d.status in ('pending', 'sending'))`,
      ),
    )
    .returning({ id: webhookEvents.id });
  return attempts.length + deliveries.length + events.length;
}
