import "server-only";
import { purgeOldActivity } from "@/lib/activity/purge-old-activity";
import { purgeExpiredAttachments } from "@/lib/attachments/purge-expired-attachments";
import { purgeMessageContent } from "@/lib/messages/purge-message-content";
import { purgeWebhookLogs } from "@/lib/webhooks/purge-webhook-logs";

/** The hourly maintenance job (scheduled in lib/worker/worker.ts): retention of logs, attachment bytes, message content and the webhook log and feed. */
export async function runMaintenance(): Promise<void> {
  await purgeOldActivity();
  await purgeExpiredAttachments();
  await purgeMessageContent();
  await purgeWebhookLogs();
}
