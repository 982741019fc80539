import "server-only";
import { deliverMessage } from "@/lib/delivery/deliver-message";
import { getDeliveryProvider } from "@/lib/delivery/registry";
import type { JobWithMetadata } from "pg-boss";
import { log } from "@/lib/log";
import type { WorkflowStepJob } from "@/lib/workflows/enqueue-workflow-step";
import { runWorkflowStep } from "@/lib/workflows/run-workflow-step";
import { getQueue, QUEUES, type DeliverMessageJob } from "./queue";

/**
 * Registers this process's job handlers. In embedded mode the server process calls this from
 * instrumentation.ts; with DATABASE_URL any number of `npm run worker` processes may too: pg-boss
 * claims each job with FOR UPDATE SKIP LOCKED, so one job runs in one worker at a time.
 */
const globalForWorkers = globalThis as unknown as { __workerIds?: Array<{ queue: string; id: string }> };

export interface WorkerOptions {
  concurrency?: number;
  pollingIntervalSeconds?: number;
}

export async function startWorkers(options: WorkerOptions = {}): Promise<void> {
  if (globalForWorkers.__workerIds) return;
  // Fail at start, not at the first message, when the configured provider cannot work.
  getDeliveryProvider();
  const boss = await getQueue();
  globalForWorkers.__workerIds = [];
  const id = await boss.work(
    QUEUES.deliverMessage,
    {
      batchSize: 1,
      // retryCount and retryLimit tell the handler when a transient failure is the last one.
      includeMetadata: true,
      localConcurrency: options.concurrency ?? 5,
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 0.5,
    },
    async ([job]: JobWithMetadata<DeliverMessageJob>[]) => deliverMessage(job.data, { attempt: job.retryCount, lastAttempt: job.retryCount >= job.retryLimit }),
  );
  globalForWorkers.__workerIds.push({ queue: QUEUES.deliverMessage, id });
  const workflowId = await boss.work(
    QUEUES.workflowStep,
    {
      batchSize: 1,
      includeMetadata: true,
      localConcurrency: options.concurrency ?? 5,
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 0.5,
    },
    async ([job]: JobWithMetadata<WorkflowStepJob>[]) => runWorkflowStep(job.data, { lastAttempt: job.retryCount >= job.retryLimit }),
  );
  globalForWorkers.__workerIds.push({ queue: QUEUES.workflowStep, id: workflowId });
  log.info("workers started", { queues: [QUEUES.deliverMessage, QUEUES.workflowStep], concurrency: options.concurrency ?? 5 });
}

export async function stopWorkers(): Promise<void> {
  const ids = globalForWorkers.__workerIds;
  globalForWorkers.__workerIds = undefined;
  if (!ids?.length) return;
  const boss = await getQueue();
  for (const { queue, id } of ids) await boss.offWork(queue, { id, wait: true });
}
