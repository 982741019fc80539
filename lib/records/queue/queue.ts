import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { fromDrizzle, fromPglite, PgBoss, type Queue } from "pg-boss";
import { getDbHandle, type DbHandle, type Executor, type Tx } from "@/db/client";
import { executePrepared } from "@/db/execute-prepared";
import { captureJobInsert, type CapturedJobInsert } from "@/internals/pg-boss";
import { pgBossPglite } from "@/internals/pglite";
import { env } from "@/lib/foundation/env";
import { errorFields, log } from "@/lib/foundation/log";
import type { DeliverMessageJob, DeliverWebhookJob, SimulateOutcomeJob } from "./jobs";

/**
 * The durable job queue: pg-boss on the same database as the data, so a message and its delivery
 * job commit in one transaction. On PGlite it shares the embedded connection (fromPglite); on
 * PostgreSQL it keeps a small pool of its own. Its schema ("pgboss") is installed and migrated by
 * pg-boss itself; see docs/architecture.md for why that is not a drizzle migration.
 */
export const QUEUES = {
  deliverMessage: "deliver-message",
  /** One job per workflow-run step; a wait step's successor is a delayed job (lib/flows/workflows). */
  workflowStep: "workflow-step",
  /** Hourly retention work (lib/entry/worker/maintenance.ts), on pg-boss's cron: one run per hour cluster-wide. */
  maintenance: "maintenance",
  /** Every 5 minutes: flag sent messages the provider never confirmed (lib/delivery/flag-unconfirmed-deliveries.ts). */
  unconfirmedDeliveries: "flag-unconfirmed-deliveries",
  /** One job per webhook delivery attempt (lib/flows/webhooks): retries are new jobs at the webhook schedule's time. */
  deliverWebhook: "deliver-webhook",
  /** The outcome simulator's reports, a second or two after a message's SENT (lib/delivery/providers/simulator). */
  simulateOutcome: "simulate-outcome",
} as const;

export type { DeliverMessageJob } from "./jobs";

/**
 * Each queue's options, read from the settings when the queue is installed (never at import: tests
 * and operators change DELIVERY_MAX_ATTEMPTS). pg-boss copies them into every job it inserts.
 */
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
    // The delivery row holds the state and the schedule; pg-boss's retries only cover a worker that
    // died mid-job (its heartbeat stops) or a failure to record, and the sweep in lib/flows/webhooks covers the rest.
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
  };
}

/**
 * DELIVERY_MAX_ATTEMPTS hand-offs in all: the first plus attempts − 1 retries. pg-boss's backoff has
 * its own jitter: the delay after attempt n (1-based) is retryDelay · 2^(n−1) · (1 + random()), capped
 * at retryDelayMax, i.e. 5–10 s, 10–20 s, 20–40 s … up to 10 minutes (docs/delivery.md "Retries").
 */
export function deliverMessageQueueOptions(): Omit<Queue, "name"> {
  return {
    // Wake a worker as soon as a job is inserted instead of at its next poll.
    notify: true,
    retryLimit: env().DELIVERY_MAX_ATTEMPTS - 1,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 600,
    // A worker that dies mid-job leaves it active: its heartbeat (refreshed every 15 s while the job
    // runs) stops, and the supervisor hands the job to another worker. A live but slow job keeps
    // beating, so it is never run twice at once; the expiry is only the outer bound.
    heartbeatSeconds: 30,
    expireInSeconds: 120,
    deleteAfterSeconds: 7 * 24 * 3600,
  };
}

const globalForQueue = globalThis as unknown as { __queue?: Promise<PgBoss> };

export function createBoss(handle: DbHandle): PgBoss {
  const boss =
    handle.driver === "pglite"
      ? new PgBoss({ db: fromPglite(pgBossPglite(handle.pglite!)), backend: "pglite" })
      : new PgBoss({ connectionString: handle.connectionString!, max: 4 });
  boss.on("error", (error) => log.error("queue error", errorFields(error, { stack: true })));
  return boss;
}

/**
 * Creates the queues (idempotent) on a started boss, then primes its queue cache. Priming matters on
 * PGlite: a send inside a transaction that misses the cache would look the queue up on the shared
 * connection the transaction holds, and wait for itself forever.
 */
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
  if (!globalForQueue.__queue) {
    globalForQueue.__queue = (async () => {
      const boss = createBoss(await getDbHandle());
      await boss.start();
      await installQueue(boss);
      return boss;
    })().catch((error) => {
      globalForQueue.__queue = undefined;
      throw error;
    });
  }
  return globalForQueue.__queue;
}

export async function stopQueue(): Promise<void> {
  const boss = globalForQueue.__queue;
  globalForQueue.__queue = undefined;
  if (boss) await (await boss).stop({ graceful: true, timeout: 10_000 });
}

/** Enqueues delivery inside the caller's transaction: the job exists if and only if the message does. */
export async function enqueueDelivery(tx: Tx, job: DeliverMessageJob): Promise<void> {
  await enqueueDeliveries(tx, [job]);
}

/**
 * One statement for any number of jobs (a 1,000-message batch). A scheduled message's job is held by
 * the queue until its time (`startAfter`): no worker fetches it before, so it never sits in a claimed
 * batch, and a worker that was down at that time finds it due when it comes back.
 */
export async function enqueueDeliveries(tx: Tx, jobs: DeliverMessageJob[]): Promise<void> {
  if (jobs.length === 0) return;
  const boss = await getQueue();
  await boss.insert(QUEUES.deliverMessage, jobs.map(jobInsertOf), { db: preparedQueueDb(tx) });
}

/** What pg-boss inserts for a delivery job: a scheduled message's job starts after its time. */
export function jobInsertOf(data: DeliverMessageJob): { data: DeliverMessageJob; startAfter?: Date } {
  return data.scheduledAt ? { data, startAfter: new Date(data.scheduledAt) } : { data };
}

/**
 * pg-boss's own delivery-job insert as CTEs of a caller's larger statement (lib/sending/accept-statement.ts:
 * a send's rows and its job in one statement). `jobs` is an SQL expression of the jobs' JSON text
 * (jobInsertOf's objects), standing where pg-boss's statement has its one parameter. pg-boss writes
 * the text (its columns, the queue's policy, retry and retention options, the NOTIFY that wakes
 * workers), captured once per queue (internals/pg-boss.ts): `ctes` to list among the caller's, `touch`
 * to read in the caller's output.
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

/**
 * pg-boss's statements in the caller's transaction, each a prepared statement (db/execute-prepared.ts):
 * its job insert has one text whatever the number of jobs (the jobs are one JSON parameter), so
 * PostgreSQL plans it once per connection instead of on every send.
 */
function preparedQueueDb(tx: Tx) {
  type Execute = Parameters<typeof fromDrizzle>[0]["execute"];
  return fromDrizzle({ execute: ((query: SQL) => executePrepared(tx, query)) as Execute }, sql);
}

/**
 * The simulator's report jobs, in the transaction that records the message's SENT (the claim's): they
 * exist if and only if the hand-off does. The queue must already be started (see queueTransaction).
 */
export async function enqueueSimulatedOutcomes(
  tx: Executor,
  jobs: Array<{ data: SimulateOutcomeJob; startAfter: Date }>,
): Promise<void> {
  if (jobs.length === 0) return;
  const boss = await getQueue();
  await boss.insert(QUEUES.simulateOutcome, jobs, { db: fromDrizzle(tx, sql) });
}

/**
 * A database transaction that may enqueue jobs. The queue is started before the transaction opens:
 * starting it inside would query the shared PGlite connection the transaction holds, and hang.
 */
export async function queueTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  await getQueue();
  const { db } = await getDbHandle();
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
