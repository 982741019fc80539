import { AppError } from "@/lib/foundation/errors";
import type { MessageStatus } from "@/db/schema";

export interface WaitingColumns {
  id: string;
  status: MessageStatus;
  sandbox: boolean;
  sentAt: Date | null;
  handedOverAt: Date | null;
  scheduledAt: Date | null;
}

/** Null while the message still waits; else the 409's sentence. Read under the row lock (docs/api.md#decided-scheduled-sends). */
export function notWaitingReason(message: WaitingColumns): string | null {
  if (message.sandbox)
    return `${message.id} is a sandbox message: it is never delivered, so there is nothing to cancel or reschedule.`;
  // Only scheduled mail can be changed: an immediate send is handed over without a row write on the hot path.
  if (!message.scheduledAt)
    return `${message.id} is not scheduled: it goes to delivery at once, so it cannot be cancelled or rescheduled.`;
  if (message.status !== "PENDING" && message.status !== "PAUSED")
    return `${message.id} is ${message.status}: only a message still waiting for delivery can be changed.`;
  if (message.sentAt || message.handedOverAt) {
    return `${message.id} has already been handed over to delivery (status ${message.status}, handed over ${(message.handedOverAt ?? message.sentAt)!.toISOString()}); it can no longer be changed.`;
  }
  return null;
}

export function assertWaiting(message: WaitingColumns): void {
  const reason = notWaitingReason(message);
  if (reason) throw new AppError("CONFLICT", reason, { param: "id" });
}
