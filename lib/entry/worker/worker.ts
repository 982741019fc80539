import "server-only";
import { deliverMessages } from "@/lib/delivery/deliver-batch";
import { flagUnconfirmedDeliveries } from "@/lib/delivery/flag-unconfirmed-deliveries";
import { getDeliveryProvider } from "@/lib/delivery/registry";
import type { JobResult, JobWithMetadata, PgBoss } from "pg-boss";
import { errorFields, log } from "@/lib/foundation/log";
import { inSpan, SpanKind, type SpanOptions } from "@/lib/foundation/tracing";
import { runMaintenance } from "./maintenance";
import { simulateOutcome } from "@/lib/delivery/providers/simulator/simulate-outcome";
import {
  deliverMessageJobSchema,
  deliverWebhookJobSchema,
  inboundActionsJobSchema,
  parseJob,
  simulateOutcomeJobSchema,
  workflowStepJobSchema,
  type DeliverWebhookJob,
  type WorkflowStepJob,
} from "@/lib/records/queue/jobs";
import { attemptDeliveries } from "@/lib/flows/webhooks/attempt-deliveries";
import { startWebhookPump, stopWebhookPump } from "@/lib/flows/webhooks/webhook-pump";
import { runWorkflowStep } from "@/lib/flows/workflows/run-workflow-step";
import { runInboundActions } from "@/lib/flows/inbound/actions/run-inbound-actions";
import { getQueue, QUEUES, type DeliverMessageJob } from "@/lib/records/queue/queue";
import { env } from "@/lib/foundation/env";
import { processSingleton } from "@/lib/foundation/process-singleton";
import { startWorkerHeartbeat, stopWorkerHeartbeat } from "./heartbeat";
import { MailFirst } from "./mail-first";

const running = processSingleton<{ workerIds?: Array<{ queue: string; id: string }>; mailFirst?: MailFirst }>(
  "worker",
  () => ({}),
);

export interface WorkerOptions {
  concurrency?: number;
  pollingIntervalSeconds?: number;
}

/** pg-boss claims each job with SKIP LOCKED, so any number of processes may run workers. */
export async function startWorkers(options: WorkerOptions = {}): Promise<void> {
  if (running.workerIds) return;
  // Fail at start, not at the first message, when the configured provider cannot work.
  getDeliveryProvider();
  const boss = await getQueue();
  running.workerIds = [];
  const mailFirst = (running.mailFirst = new MailFirst({
    settleMs: MAIL_SETTLE_MS,
    maxWaitMs: env().WEBHOOK_MAIL_FIRST_SECONDS * 1000,
  }));
  const ids = [
    await workBatches<DeliverMessageJob>(
      boss,
      QUEUES.deliverMessage,
      { ...options, batchSize: DELIVERY_BATCH_SIZE },
      (jobs) => mailFirst.delivering(() => deliverJobs(jobs)),
    ),
    await work<WorkflowStepJob>(boss, QUEUES.workflowStep, options, (job) =>
      runWorkflowStep(parseJob(QUEUES.workflowStep, workflowStepJobSchema, job.data), {
        lastAttempt: job.retryCount >= job.retryLimit,
      }),
    ),
    await work<object>(boss, QUEUES.maintenance, { ...options, concurrency: 1 }, () => runMaintenance()),
    await work<object>(boss, QUEUES.unconfirmedDeliveries, { ...options, concurrency: 1 }, () =>
      flagUnconfirmedDeliveries(),
    ),
    await work<object>(boss, QUEUES.simulateOutcome, options, (job) =>
      simulateOutcome(parseJob(QUEUES.simulateOutcome, simulateOutcomeJobSchema, job.data)),
    ),
    await work<object>(boss, QUEUES.inboundActions, options, (job) => {
      const data = parseJob(QUEUES.inboundActions, inboundActionsJobSchema, job.data);
      return inSpan("inbound actions", jobSpan(QUEUES.inboundActions, data.traceParent, data), () =>
        runInboundActions(data),
      );
    }),
    await workBatches<DeliverWebhookJob>(
      boss,
      QUEUES.deliverWebhook,
      { ...options, batchSize: WEBHOOK_BATCH_SIZE },
      (jobs) => mailFirst.afterMail(() => deliverWebhookJobs(jobs)),
    ),
  ];
  startWebhookPump({ runTurn: (turn) => mailFirst.afterMail(turn) });
  // Idempotent: every process declares the same schedule; pg-boss creates one job per occurrence.
  await boss.schedule(QUEUES.maintenance, "17 * * * *");
  await boss.schedule(QUEUES.unconfirmedDeliveries, "*/5 * * * *");
  running.workerIds.push(...ids);
  await startWorkerHeartbeat(boss);
  log.info("workers started", { queues: ids.map((entry) => entry.queue), concurrency: options.concurrency ?? 5 });
}

/** A fetched batch of delivery jobs: each payload is checked on its own, so one unreadable job fails alone. */
async function deliverJobs(jobs: JobWithMetadata<DeliverMessageJob>[]): Promise<Array<Error | null>> {
  const results: Array<Error | null> = jobs.map(() => null);
  const readable: Array<{ index: number; job: DeliverMessageJob; context: { attempt: number; lastAttempt: boolean } }> =
    [];
  jobs.forEach((job, index) => {
    try {
      const data = parseJob(QUEUES.deliverMessage, deliverMessageJobSchema, job.data);
      readable.push({
        index,
        job: data,
        context: { attempt: job.retryCount, lastAttempt: job.retryCount >= job.retryLimit },
      });
    } catch (error) {
      results[index] = error as Error;
    }
  });
  const delivered = await deliverMessages(readable.map(({ job, context }) => ({ job, context })));
  readable.forEach(({ index }, position) => (results[index] = delivered[position]));
  return results;
}

/** Webhook jobs of one fetch are claimed, loaded and recorded together; their requests go out at once. */
async function deliverWebhookJobs(jobs: JobWithMetadata<DeliverWebhookJob>[]): Promise<Array<Error | null>> {
  const results: Array<Error | null> = jobs.map(() => null);
  const readable: DeliverWebhookJob[] = [];
  jobs.forEach((job, index) => {
    try {
      readable.push(parseJob(QUEUES.deliverWebhook, deliverWebhookJobSchema, job.data));
    } catch (error) {
      results[index] = error as Error;
    }
  });
  await attemptDeliveries(readable);
  return results;
}

const BATCH_SIZE = 10;
/** The gap between two delivery batches of a backlog is not idleness: webhook work waits this long after the last one. */
const MAIL_SETTLE_MS = 50;
const WEBHOOK_BATCH_SIZE = 100;
/** Delivery reads a batch's messages, suppressions and domains set-based: larger batches amortise more. */
const DELIVERY_BATCH_SIZE = 100;

interface WorkOptions extends WorkerOptions {
  batchSize?: number;
}

/** One job at a time per handler call (the jobs of a fetched batch still run at once). */
function work<T extends object>(
  boss: PgBoss,
  queue: string,
  options: WorkOptions,
  handle: (job: JobWithMetadata<T>) => Promise<unknown>,
): Promise<{ queue: string; id: string }> {
  return workBatches<T>(boss, queue, options, (jobs) =>
    Promise.all(
      jobs.map(async (job) => {
        try {
          await handle(job);
          return null;
        } catch (error) {
          return error instanceof Error ? error : new Error(String(error));
        }
      }),
    ),
  );
}

/**
 * Each poller hands up to `batchSize` jobs to `handle`, which answers one entry per job (an Error: that job alone is
 * retried). Full fetches are followed at once; an idle queue is polled, and NOTIFY wakes pollers.
 */
async function workBatches<T extends object>(
  boss: PgBoss,
  queue: string,
  options: WorkOptions,
  handle: (jobs: JobWithMetadata<T>[]) => Promise<Array<Error | null>>,
): Promise<{ queue: string; id: string }> {
  const id = await boss.work(
    queue,
    {
      batchSize: options.batchSize ?? BATCH_SIZE,
      burstWhenBatchFull: true,
      perJobResults: true,
      // retryCount and retryLimit tell the handler when a transient failure is the last one.
      includeMetadata: true,
      localConcurrency: options.concurrency ?? 5,
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 0.5,
      notifyPollingIntervalSeconds: 5,
    },
    async (jobs: JobWithMetadata<T>[]): Promise<JobResult[]> => {
      let errors: Array<Error | null>;
      try {
        errors = await handle(jobs);
      } catch (error) {
        // A failure of the whole batch (its set-based reads): every job is retried.
        errors = jobs.map(() => (error instanceof Error ? error : new Error(String(error))));
      }
      return jobs.map((job, index): JobResult => {
        const error = errors[index];
        if (!error) return { id: job.id, status: "completed" };
        log.warn("job failed; the queue retries it", {
          queue,
          jobId: job.id,
          ...messageOf(job.data),
          attempt: job.retryCount,
          ...errorFields(error),
        });
        return { id: job.id, status: "failed", output: { message: error.message } };
      });
    },
  );
  return { queue, id };
}

/** A job's consumer span, continuing the trace its producer stored in the job (docs/observability.md#spans). */
function jobSpan(queue: string, traceParent: string | undefined, data: { workspaceId: string }): SpanOptions {
  return {
    kind: SpanKind.CONSUMER,
    parent: traceParent ?? null,
    attributes: {
      "messaging.system": "pg-boss",
      "messaging.destination.name": queue,
      "postwerk.workspace_id": data.workspaceId,
    },
  };
}

function messageOf(data: object): { messageId?: string } {
  const messageId = (data as { messageId?: unknown }).messageId;
  return typeof messageId === "string" ? { messageId } : {};
}

export async function stopWorkers(): Promise<void> {
  // The row stays: it ages out, so a restart within READY_WORKER_STALL_SECONDS never fails readiness.
  await stopWorkerHeartbeat();
  running.mailFirst?.stop();
  running.mailFirst = undefined;
  await stopWebhookPump();
  const ids = running.workerIds;
  running.workerIds = undefined;
  if (!ids?.length) return;
  const boss = await getQueue();
  for (const { queue, id } of ids) await boss.offWork(queue, { id, wait: true });
}
