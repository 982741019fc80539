import "server-only";
import { purgeOldActivity } from "@/lib/activity/purge-old-activity";
import { purgeOldAuditEvents } from "@/lib/audit/purge-old-audit-events";
import { purgeExpiredAttachments } from "@/lib/attachments/purge-expired-attachments";
import { purgeMessageContent } from "@/lib/messages/purge-message-content";

/** The hourly maintenance job (scheduled in lib/worker/worker.ts): retention of logs (activity, audit), attachment bytes and message content. */
export async function runMaintenance(): Promise<void> {
  await purgeOldActivity();
  await purgeOldAuditEvents();
  await purgeExpiredAttachments();
  await purgeMessageContent();
}
