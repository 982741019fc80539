import { getTableName, sql } from "drizzle-orm";
import { PgBoss } from "pg-boss";
import { getDb } from "@/db/client";
import { emailMessageLogs, emailMessages } from "@/db/schema";
import { sendBatch } from "@/lib/sending/send-batch";
import { getQueue, QUEUES } from "@/lib/records/queue/queue";
import { createTestWorkspace } from "./fixtures";
import { exitOf, startWorkerProcess, type WorkerProcess } from "./worker-process";

/**
 * One SIGKILL of a worker process mid-delivery, shared by lib/delivery/crash-safety-kill.test.ts and
 * `npm run bench:crash`: N messages accepted through sendBatch, a `npm run worker` process delivering
 * them, SIGKILLed once the provider has `killAfter`, a replacement started at once, and the wait until
 * every message is SUCCEEDED. The caller's provider stand-in counts copies; this reports the database's side.
 */
export interface KillRunOptions {
  databaseUrl: string;
  /** The worker's provider settings (DELIVERY_PROVIDER, SMTP_URL or RESEND_*). */
  workerEnv: Record<string, string>;
  count: number;
  /** What the provider has taken so far (the kill moment is chosen on it). */
  delivered(): number;
  killAfter: number;
  timeoutMs: number;
  /**
   * Wraps the kill (default: kill at once), e.g. to hold the recording back first so that the window
   * is full when the worker dies. `kill` resolves once the process is gone.
   */
  killWith?: (kill: () => Promise<void>) => Promise<void>;
  /** Runs on the new workspace before anything is accepted (its connections and routing rules). */
  prepare?: (workspaceId: string) => Promise<void>;
}

export interface KillRunResult {
  ids: string[];
  /** delivered() when the worker died. */
  deliveredAtKill: number;
  /** Delivery jobs the dead worker held (state active) just after the kill. */
  activeAtKill: number;
  /** Kill to every message SUCCEEDED. */
  recoveredMs: number;
  /** Messages not SUCCEEDED, or without exactly one SENT event, at the end (0 unless something was lost). */
  unsettled: number;
}

/**
 * A supervisor that returns a dead worker's jobs within seconds: the queue's heartbeat lowered to 10 s
 * (production: 30 s) and checked every second (pg-boss's default: every minute). Call once per database.
 */
export async function startFastSupervisor(databaseUrl: string): Promise<() => Promise<void>> {
  const supervisor = new PgBoss({
    connectionString: databaseUrl,
    max: 2,
    superviseIntervalSeconds: 1,
    monitorIntervalSeconds: 1,
    schedule: false,
  });
  await supervisor.start();
  await (await getQueue()).updateQueue(QUEUES.deliverMessage, { heartbeatSeconds: 10 });
  return () => supervisor.stop({ graceful: false });
}

export async function killDuringDelivery(options: KillRunOptions): Promise<KillRunResult> {
  const { workspace } = await createTestWorkspace({ name: "Kill run" });
  await options.prepare?.(workspace.id);
  const workers: WorkerProcess[] = [];
  const worker = () => {
    const child = startWorkerProcess({ DATABASE_URL: options.databaseUrl, ...options.workerEnv });
    workers.push(child);
    return child;
  };
  try {
    const first = worker();
    await first.started;
    const ids = await accept(workspace.id, options.count);
    await until(() => options.delivered() >= options.killAfter, options.timeoutMs, `${options.killAfter} deliveries`);
    let deliveredAtKill = 0;
    const kill = async () => {
      first.child.kill("SIGKILL");
      deliveredAtKill = options.delivered();
      await exitOf(first.child);
    };
    await (options.killWith ?? ((run) => run()))(kill);
    const killedAt = Date.now();
    const activeAtKill = await activeJobs(workspace.id);
    worker();
    await until(
      async () => (await unsettled(workspace.id)) === 0,
      options.timeoutMs,
      "every message to be SUCCEEDED with one SENT",
      250,
    );
    const recoveredMs = Date.now() - killedAt;
    return { ids, deliveredAtKill, activeAtKill, recoveredMs, unsettled: await unsettled(workspace.id) };
  } finally {
    for (const child of workers) {
      await child.started.catch(() => {});
      await child.stop();
    }
  }
}

/**
 * A killWith that first holds every recording back (SHARE lock on the timeline table: the SENT inserts
 * wait, reads go on) until the provider has taken nothing new for `quietMs`, so the worker dies with its
 * window as full as the gate lets it be: the worst case, what a slow database leads to. The lock ends
 * with the kill; the dead worker's statements waiting for it are ended first, so none of its records
 * lands: the worst case.
 */
export function killWithRecordingHeld(
  delivered: () => number,
  quietMs = 750,
): (kill: () => Promise<void>) => Promise<void> {
  return async (kill) => {
    const db = await getDb();
    await db.transaction(async (tx) => {
      await tx.execute(sql`lock table ${emailMessageLogs} in share mode`);
      let last = -1;
      while (delivered() !== last) {
        last = delivered();
        await new Promise((resolve) => setTimeout(resolve, quietMs));
      }
      await kill();
      // A statement the dead worker had already sent would still commit once the lock goes (a backend
      // waiting for a lock does not notice its client is gone): ended here, as if it had never been sent.
      await tx.execute(
        sql`select pg_terminate_backend(pid) from pg_locks where relation = to_regclass(${getTableName(emailMessageLogs)}) and not granted`,
      );
    });
  };
}

async function accept(workspaceId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 1000) {
    const emailMessages = Array.from({ length: Math.min(1000, count - start) }, (_, i) => ({
      from: "Acme <hello@example.com>",
      to: `reader${start + i}@example.org`,
      subject: `Kill run ${start + i}`,
      bodyHtml: `<p>Message ${start + i}</p>`,
    }));
    const { emailMessageIds } = await sendBatch({ workspaceId, sandbox: false, body: { emailMessages } });
    ids.push(...emailMessageIds);
  }
  return ids;
}

/** Messages of the run's workspace not yet SUCCEEDED with exactly one SENT event. */
async function unsettled(workspaceId: string): Promise<number> {
  const db = await getDb();
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(emailMessages)
    .where(
      sql`${emailMessages.workspaceId} = ${workspaceId} and (${emailMessages.status} <> 'SUCCEEDED' or (select count(*) from ${emailMessageLogs}
        where ${emailMessageLogs.emailMessageId} = ${emailMessages.id} and ${emailMessageLogs.code} = 'EMAIL_MESSAGE_SENT_PROVIDER_EVENT') <> 1)`,
    );
  return n;
}

async function activeJobs(workspaceId: string): Promise<number> {
  const db = await getDb();
  const [{ n }] = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from pgboss.job where name = ${QUEUES.deliverMessage} and state = 'active' and data->>'workspaceId' = ${workspaceId}`,
  );
  return n;
}

async function until(
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  what: string,
  everyMs = 10,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
