import { AppError } from "@/lib/foundation/errors";
import type { MessageStatus } from "@/db/schema";

/** The columns that say whether a message may still be cancelled or rescheduled. */
export interface WaitingColumns {
  id: string;
  status: MessageStatus;
  sandbox: boolean;
  sentAt: Date | null;
  handedOverAt: Date | null;
  scheduledAt: Date | null;
}

/**
 * Null while the message still waits for its time (live, scheduled, PENDING or PAUSED, never handed
 * over to a provider); otherwise the sentence that names its state, for the 409 (docs/api.md#decided-scheduled-sends).
 * Read under the row lock: delivery marks `handed_over_at` with a conditional update before it sends.
 */
export function notWaitingReason(message: WaitingColumns): string | null {
  if (message.sandbox) return `${message.id} is a sandbox message: it is never delivered, so there is nothing to cancel or reschedule.`;
  // Only scheduled mail can be changed (as with Resend): an immediate send is handed over without a
  // mark, keeping the hot path of immediate delivery free of a row write (lib/delivery/load-delivery-batch.ts).
  if (!message.scheduledAt) return `${message.id} is not scheduled: it goes to delivery at once, so it cannot be cancelled or rescheduled.`;
  if (message.status !== "PENDING" && message.status !== "PAUSED") return `${message.id} is ${message.status}: only a message still waiting for delivery can be changed.`;
  if (message.sentAt || message.handedOverAt) {
    return `${message.id} has already been handed over to delivery (status ${message.status}, handed over ${(message.handedOverAt ?? message.sentAt)!.toISOString()}); it can no longer be changed.`;
  }
  return null;
}

export function assertWaiting(message: WaitingColumns): void {
  const reason = notWaitingReason(message);
  if (reason) throw new AppError("CONFLICT", reason, { param: "id" });
}
