import "server-only";
import { sql } from "drizzle-orm";
import { fromDrizzle } from "pg-boss";
import type { Tx } from "@/db/client";
import type { WorkflowStepJob } from "./jobs";
import { getQueue, QUEUES } from "./queue";

/**
 * Enqueues one step inside the caller's transaction (call it in queueTransaction): the job exists if
 * and only if the write that scheduled it commits. `delaySeconds` makes a durable delayed job: a
 * pg-boss row with a future start_after, which survives restarts and runs once it is due.
 */
export async function enqueueWorkflowStep(tx: Tx, job: WorkflowStepJob, delaySeconds = 0): Promise<void> {
  const boss = await getQueue();
  await boss.insert(QUEUES.workflowStep, [{ data: job, ...(delaySeconds > 0 ? { startAfter: delaySeconds } : {}) }], {
    db: fromDrizzle(tx, sql),
  });
}
