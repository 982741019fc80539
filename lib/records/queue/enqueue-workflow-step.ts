import "server-only";
import { sql } from "drizzle-orm";
import { fromDrizzle } from "pg-boss";
import type { Tx } from "@/db/client";
import type { WorkflowStepJob } from "./jobs";
import { getQueue, QUEUES } from "./queue";

/** In the caller's queueTransaction, so the job exists iff its write commits; a delayed job survives restarts. */
export async function enqueueWorkflowStep(tx: Tx, job: WorkflowStepJob, delaySeconds = 0): Promise<void> {
  const boss = await getQueue();
  await boss.insert(QUEUES.workflowStep, [{ data: job, ...(delaySeconds > 0 ? { startAfter: delaySeconds } : {}) }], {
    db: fromDrizzle(tx, sql),
  });
}
