import "server-only";
import { processSingleton } from "@/lib/foundation/process-singleton";
import { sql, type SQL } from "drizzle-orm";
import { fromDrizzle, fromPglite, PgBoss, type Queue } from "pg-boss";
import { getDb, getDbHandle, type DbHandle, type Executor, type Tx } from "@/db/client";
import { executePrepared } from "@/db/execute-prepared";
import { captureJobInsert, type CapturedJobInsert } from "@/internals/pg-boss";
import { pgBossPglite } from "@/internals/pglite";
import { env } from "@/lib/foundation/env";
import { errorFields, log } from "@/lib/foundation/log";
import type { DeliverMessageJob, DeliverWebhookJob, InboundActionsJob, SimulateOutcomeJob } from "./jobs";

/** pg-boss on the data's database, so a message and its delivery job commit in one transaction. */
export const QUEUES = {
  deliverMessage: "deliver-message",
  /** One job per workflow-run step; a wait step's successor is a delayed job (lib/flows/workflows). */
  workflowStep: "workflow-step",
  /** On pg-boss's cron: one run per hour cluster-wide. */
  maintenance: "maintenance",
  unconfirmedDeliveries: "flag-unconfirmed-deliveries",
  /** One job per attempt: retries are new jobs at the webhook schedule's time. */
  deliverWebhook: "deliver-webhook",
  simulateOutcome: "simulate-outcome",
  /** A stored inbound mail's forward and workflow actions (lib/flows/inbound/actions), enqueued as it is stored. */
  inboundActions: "inbound-actions",
} as const;

export type { DeliverMessageJob } from "./jobs";

/** Read when the queue is installed, never at import: tests and operators change DELIVERY_MAX_ATTEMPTS. */
export function queueOptions(): Record<string, Omit<Queue, "name">> {
  return {
    [QUEUES.deliverMessage]: deliverMessageQueueOptions(),
    [QUEUES.workflowStep]: {
      notify: true,
      retryLimit: 5,
      retryDelay: 5,
      retryBackoff: true,
      retryDelayMax: 300,
      expireInSeconds: 120,
      // Counted from the job's startAfter, so a 90-day wait is kept; this is the grace for workers being down.
      retentionSeconds: 30 * 24 * 3600,
      deleteAfterSeconds: 7 * 24 * 3600,
    },
    [QUEUES.maintenance]: { retryLimit: 2, retryDelay: 60, expireInSeconds: 900, deleteAfterSeconds: 24 * 3600 },
    // The next run, 5 minutes later, picks up whatever a failed one left: no retries needed.
    [QUEUES.unconfirmedDeliveries]: { retryLimit: 0, expireInSeconds: 600, deleteAfterSeconds: 3600 },
    // The delivery row holds the state; pg-boss's retries only cover a dead worker or a failure to record.
    [QUEUES.deliverWebhook]: {
      notify: true,
      retryLimit: 5,
      retryDelay: 5,
      retryBackoff: true,
      retryDelayMax: 120,
      heartbeatSeconds: 30,
      expireInSeconds: 120,
      deleteAfterSeconds: 24 * 3600,
    },
    // Each report is idempotent by its providerEventId: a retry records only what is missing.
    [QUEUES.simulateOutcome]: {
      notify: true,
      retryLimit: 5,
      retryDelay: 2,
      retryBackoff: true,
      expireInSeconds: 60,
      deleteAfterSeconds: 24 * 3600,
    },
    // Each action is idempotent (a forward by its idempotency key, a workflow run by its key): a retry redoes none.
    [QUEUES.inboundActions]: {
      notify: true,
      retryLimit: 5,
      retryDelay: 5,
      retryBackoff: true,
      retryDelayMax: 300,
      expireInSeconds: 120,
      deleteAfterSeconds: 7 * 24 * 3600,
    },
  };
}

/** DELIVERY_MAX_ATTEMPTS hand-offs in all, with pg-boss's jittered backoff (docs/delivery.md "Retries"). */
export function deliverMessageQueueOptions(): Omit<Queue, "name"> {
  return {
    // Wake a worker as soon as a job is inserted instead of at its next poll.
    notify: true,
    retryLimit: env().DELIVERY_MAX_ATTEMPTS - 1,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 600,
    // A dead worker's heartbeat stops and its job moves on; a slow live one keeps beating, never run twice.
    heartbeatSeconds: 30,
    expireInSeconds: 120,
    deleteAfterSeconds: 7 * 24 * 3600,
  };
}

const queueSlot = processSingleton("queue", () => ({}) as { boss?: Promise<PgBoss> });

export function createBoss(handle: DbHandle): PgBoss {
  const boss =
    handle.driver === "pglite"
      ? new PgBoss({ db: fromPglite(pgBossPglite(handle.pglite!)), backend: "pglite" })
      : new PgBoss({ connectionString: handle.connectionString!, max: 4 });
  boss.on("error", (error) => log.error("queue error", errorFields(error, { stack: true })));
  return boss;
}

/** Then primes the queue cache: on PGlite a miss inside a transaction would wait for itself forever. */
export async function installQueue(boss: PgBoss): Promise<void> {
  for (const [name, options] of Object.entries(queueOptions())) {
    const existing = await boss.getQueue(name);
    if (existing) await boss.updateQueue(name, options);
    else await boss.createQueue(name, options);
    await boss.getJobById(name, "00000000-0000-0000-0000-000000000000");
  }
}

/** The process-wide started queue, shared by senders and this process's workers. */
export function getQueue(): Promise<PgBoss> {
  if (!queueSlot.boss) {
    queueSlot.boss = (async () => {
      const boss = createBoss(await getDbHandle());
      await boss.start();
      await installQueue(boss);
      return boss;
    })().catch((error) => {
      queueSlot.boss = undefined;
      throw error;
    });
  }
  return queueSlot.boss;
}

export async function stopQueue(): Promise<void> {
  const boss = queueSlot.boss;
  queueSlot.boss = undefined;
  if (boss) await (await boss).stop({ graceful: true, timeout: 10_000 });
}

/** Enqueues delivery inside the caller's transaction: the job exists if and only if the message does. */
export async function enqueueDelivery(tx: Tx, job: DeliverMessageJob): Promise<void> {
  await enqueueDeliveries(tx, [job]);
}

/** One statement for any number of jobs; a scheduled job waits in the queue until its time (`startAfter`). */
export async function enqueueDeliveries(tx: Tx, jobs: DeliverMessageJob[]): Promise<void> {
  if (jobs.length === 0) return;
  const boss = await getQueue();
  await boss.insert(QUEUES.deliverMessage, jobs.map(jobInsertOf), { db: preparedQueueDb(tx) });
}

export function jobInsertOf(data: DeliverMessageJob): { data: DeliverMessageJob; startAfter?: Date } {
  return data.scheduledAt ? { data, startAfter: new Date(data.scheduledAt) } : { data };
}

/**
 * pg-boss's delivery-job insert as CTEs of a caller's statement, its text captured once per queue
 * (internals/pg-boss.ts). `jobs` is an SQL expression of jobInsertOf's objects as JSON text.
 */
export async function deliveryJobsInsert(jobs: SQL): Promise<{ ctes: SQL; touch: SQL; shape: string }> {
  const boss = await getQueue();
  let captured = capturedDeliveryInserts.get(boss);
  if (!captured) {
    captured = captureJobInsert(boss, QUEUES.deliverMessage);
    capturedDeliveryInserts.set(boss, captured);
    captured.catch(() => capturedDeliveryInserts.delete(boss));
  }
  const { before, after, touch } = await captured;
  // `shape` names the captured text: a caller that compiles its statement once keys it by this.
  return {
    ctes: sql`${sql.raw(before)}${jobs}${sql.raw(after)}`,
    touch: sql.raw(touch),
    shape: `${before}$1${after}${touch}`,
  };
}

const capturedDeliveryInserts = new WeakMap<PgBoss, Promise<CapturedJobInsert>>();

// Prepared: the job insert's text is the same whatever the number of jobs (one JSON parameter).
function preparedQueueDb(tx: Tx) {
  type Execute = Parameters<typeof fromDrizzle>[0]["execute"];
  return fromDrizzle({ execute: ((query: SQL) => executePrepared(tx, query)) as Execute }, sql);
}

/** In the claim's transaction: the reports exist iff the hand-off does. The queue must already be started. */
export async function enqueueSimulatedOutcomes(
  tx: Executor,
  jobs: Array<{ data: SimulateOutcomeJob; startAfter: Date }>,
): Promise<void> {
  if (jobs.length === 0) return;
  const boss = await getQueue();
  await boss.insert(QUEUES.simulateOutcome, jobs, { db: fromDrizzle(tx, sql) });
}

/** Starts the queue first: inside the transaction it would wait on the PGlite connection the transaction holds. */
export async function queueTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  await getQueue();
  const db = await getDb();
  return db.transaction(work);
}

/** Webhook delivery jobs, inside the caller's transaction (fan-out, retries, the next event of a message). */
export async function enqueueWebhookDeliveries(
  tx: Tx,
  jobs: Array<{ data: DeliverWebhookJob; startAfter?: Date }>,
): Promise<void> {
  if (jobs.length === 0) return;
  const boss = await getQueue();
  await boss.insert(
    QUEUES.deliverWebhook,
    jobs.map(({ data, startAfter }) => (startAfter ? { data, startAfter } : { data })),
    { db: fromDrizzle(tx, sql) },
  );
}

/** In the storing transaction: a job exists iff its inbound mail does (one insert for a group's mails). */
export async function enqueueInboundActions(tx: Tx, jobs: InboundActionsJob[]): Promise<void> {
  if (jobs.length === 0) return;
  const boss = await getQueue();
  await boss.insert(
    QUEUES.inboundActions,
    jobs.map((data) => ({ data })),
    { db: fromDrizzle(tx, sql) },
  );
}
