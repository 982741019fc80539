import "server-only";
import type { DeliverMessageJob } from "@/lib/jobs/queue";

/** Placeholder replaced by the delivery slice. */
export async function deliverMessage(job: DeliverMessageJob, context: { attempt: number }): Promise<void> {
  void job;
  void context;
  throw new Error("deliverMessage is not implemented yet");
}
