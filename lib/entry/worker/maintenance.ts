import "server-only";
import { purgeOldActivity } from "@/lib/records/activity/purge-old-activity";
import { purgeOldAuditEvents } from "@/lib/records/audit/purge-old-audit-events";
import { purgeExpiredAttachments } from "@/lib/domain/attachments/purge-expired-attachments";
import { purgeMessageContent } from "@/lib/domain/messages/purge-message-content";
import { purgeInboundContent } from "@/lib/domain/inbound/purge-inbound-content";
import { purgeResendHandoffs } from "@/lib/delivery/providers/resend/resend-handoffs";
import { getDb } from "@/db/client";
import { compactOverviewShards } from "@/lib/domain/insights/compact-overview-shards";
import { purgeWebhookLogs } from "@/lib/flows/webhooks/purge-webhook-logs";
import { maintainPartitions } from "@/lib/records/partitions/maintain-partitions";
import { purgeExpiredMetadata } from "@/lib/flows/retention/purge-expired-metadata";

/** Hourly: retention of logs, attachment bytes, message and inbound content, metadata past each workspace's window and the webhook log; folds past days' count shards. */
export async function runMaintenance(): Promise<void> {
  // Days made ahead first, so no insert falls back to the default partition because a purge failed.
  await maintainPartitions();
  await purgeOldActivity();
  await purgeOldAuditEvents();
  await purgeExpiredAttachments();
  // Rows past a metadata window go before the bodies' purge would spend a write on them.
  await purgeExpiredMetadata();
  await purgeMessageContent();
  await purgeInboundContent();
  await purgeResendHandoffs(await getDb());
  await purgeWebhookLogs();
  await compactOverviewShards();
}
