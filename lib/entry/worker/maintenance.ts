import "server-only";
import { purgeOldActivity } from "@/lib/records/activity/purge-old-activity";
import { purgeOldAuditEvents } from "@/lib/records/audit/purge-old-audit-events";
import { purgeExpiredAttachments } from "@/lib/domain/attachments/purge-expired-attachments";
import { purgeMessageContent } from "@/lib/domain/messages/purge-message-content";
import { purgeInboundContent } from "@/lib/domain/inbound/purge-inbound-content";
import { purgeResendHandoffs } from "@/lib/delivery/providers/resend/resend-handoffs";
import { getDb } from "@/db/client";
import { now as clockNow } from "@/lib/foundation/clock";
import { compactOverviewShards } from "@/lib/domain/insights/compact-overview-shards";
import { purgeWebhookLogs } from "@/lib/flows/webhooks/purge-webhook-logs";
import { maintainPartitions } from "@/lib/records/partitions/maintain-partitions";
import { compactPurgedDays } from "@/lib/records/partitions/compact-purged-days";
import { releaseDayAttachments } from "@/lib/domain/inbound/release-day-attachments";
import { purgeExpiredMetadata } from "@/lib/flows/retention/purge-expired-metadata";
import { checkDueDomains } from "@/lib/domain/domains/requirements/requirement-history";

/**
 * Hourly: retention of logs, attachment bytes, message and inbound content, metadata past each workspace's window and
 * the webhook log; compacts past days left without bodies; folds past days' count shards; checks the domains' sender requirements once a day. "Now" is the service clock's, one instant for every step (the
 * retention bench runs it on a moved clock).
 */
export async function runMaintenance(now: Date = clockNow()): Promise<void> {
  await maintainPartitions({ now, releaseOutside: releaseDayAttachments });
  await purgeOldActivity({ now });
  await purgeOldAuditEvents({ now });
  await purgeExpiredAttachments({ now });
  await purgeExpiredMetadata({ now });
  await purgeMessageContent({ now });
  await purgeInboundContent({ now });
  await compactPurgedDays({ now }); // after the purges that leave a day without bodies
  await purgeResendHandoffs(await getDb());
  await purgeWebhookLogs(now);
  await compactOverviewShards(now);
  await checkDueDomains(now);
}
