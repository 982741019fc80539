import "server-only";
import type { DeliverMessageJob } from "@/lib/records/queue/queue";
import { deliverMessages, type DeliverContext } from "@/lib/delivery/deliver-batch";

export type { DeliverContext } from "@/lib/delivery/deliver-batch";

/**
 * The delivery job for one message (docs/api.md#decided-sending): hands a live PENDING message to the
 * provider, then records SENT (sentAt, status SUCCEEDED) and, when the provider knows it, DELIVERED.
 * Sandbox messages are never handed to a provider. Claim → send → record: each run re-checks the
 * message is still unsent before sending and under the row lock when recording, so a retried or
 * duplicated job is a no-op (docs/architecture.md#rules-that-carry-weight, rule 3). Throws to have the queue retry: a transient
 * provider failure or an unexpected error. The worker delivers whole batches (deliver-batch.ts).
 */
export async function deliverMessage(job: DeliverMessageJob, context: DeliverContext): Promise<void> {
  const [error] = await deliverMessages([{ job, context }]);
  if (error) throw error;
}
