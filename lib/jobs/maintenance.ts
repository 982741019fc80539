import "server-only";
import { purgeOldActivity } from "@/lib/activity/purge-old-activity";
import { purgeExpiredAttachments } from "@/lib/attachments/purge-expired-attachments";

/** The hourly maintenance job (scheduled in lib/jobs/worker.ts): retention of logs and attachment bytes. */
export async function runMaintenance(): Promise<void> {
  await purgeOldActivity();
  await purgeExpiredAttachments();
}
