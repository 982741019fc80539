import "server-only";
import { sql } from "drizzle-orm";
import { getDb, getDbHandle } from "@/db/client";
import { pendingMigrations } from "@/db/migrate";
import { describeBehind, idsBehind, readTransactionHorizon } from "@/db/transaction-ids";
import { env } from "@/lib/foundation/env";
import { errorFields, log } from "@/lib/foundation/log";
import { processSingleton } from "@/lib/foundation/process-singleton";
import { getQueue, QUEUES } from "@/lib/records/queue/queue";
import type { WipData } from "pg-boss";
import { CheckFailure, withTimeout } from "./query";
import { workerStall } from "./worker-stall";

export interface CheckResult {
  status: "ok" | "fail";
  durationMs: number;
  error?: string;
}

export interface Readiness {
  status: "ok" | "fail";
  checks: Record<string, CheckResult>;
}

/** A check slower than this fails: a probe must answer well within its own timeout (often 1–5 s). */
const CHECK_TIMEOUT_MS = 2_000;
/** A worker loop that has not fetched for this long is stuck (it polls every 0.5–5 s when idle). */
const WORKER_STALE_MS = 60_000;
/** A job being worked on may keep its loop from fetching up to its expiry (120 s); past that it is stuck. */
const WORKER_BUSY_MS = 180_000;
/** Probe storms (several probers, many replicas behind one check) share one result per second. */
const CACHE_MS = 1_000;

const lastRun = processSingleton<{ readiness?: { at: number; result: Promise<Readiness> } }>(
  "health.readiness",
  () => ({}),
);

export function readiness(): Promise<Readiness> {
  const cached = lastRun.readiness;
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.result;
  const result = computeReadiness();
  lastRun.readiness = { at: Date.now(), result };
  return result;
}

async function computeReadiness(): Promise<Readiness> {
  const entries = await Promise.all(
    Object.entries(CHECKS).map(async ([name, check]) => [name, await timed(name, check)] as const),
  );
  const checks = Object.fromEntries(entries.filter(([, result]) => result !== null)) as Record<string, CheckResult>;
  const status = Object.values(checks).every((check) => check.status === "ok") ? "ok" : "fail";
  return { status, checks };
}

/** Each check resolves when healthy, throws when not, or answers "skip" when it does not apply here. */
const CHECKS: Record<string, () => Promise<void | "skip">> = {
  async database() {
    const db = await getDb();
    await db.execute(sql`select 1`);
  },
  async migrations() {
    const pending = await pendingMigrations(await getDbHandle());
    if (pending.length > 0) throw new CheckFailure(`${pending.length} committed migration(s) not applied`);
  },
  // Rows restored onto a new PostgreSQL cluster hold ids it has not reached: webhooks and the feed wait (docs/backups.md).
  async transactionIds() {
    const horizon = await readTransactionHorizon(await getDb());
    if (idsBehind(horizon) > 0) throw new CheckFailure(describeBehind(horizon));
  },
  async queue() {
    // Through pg-boss's own connection (its own pool on PostgreSQL), not the application's.
    const { rows } = await (
      await getQueue()
    )
      .getDb()
      .executeSql("select name from pgboss.queue where name = $1", [QUEUES.deliverMessage]);
    if (rows.length === 0) throw new CheckFailure(`queue ${QUEUES.deliverMessage} is missing`);
  },
  async workers() {
    const loops = (await getQueue()).getWipData({ includeInternal: false });
    if (loops.length === 0) return "skip";
    const stuck = loops.filter((loop) => !loopAlive(loop, Date.now()));
    if (stuck.length > 0)
      throw new CheckFailure(`worker loop(s) stalled: ${[...new Set(stuck.map((loop) => loop.name))].join(", ")}`);
  },
  // Any process's: mail waits past READY_WORKER_STALL_SECONDS and no worker on this database checked in.
  async worker() {
    if (env().READY_WORKER_STALL_SECONDS === 0) return "skip";
    await getQueue(); // pg-boss creates its tables when it starts
    const stall = await workerStall();
    if (stall) throw new CheckFailure(stall);
  },
};

/**
 * A loop's lastFetchedOn is its heartbeat (stamped even on empty fetches): alive when recent, or when busy with a fetch
 * no older than a job may run. A loop whose fetches fail stops stamping and goes stale.
 */
export function loopAlive(loop: Pick<WipData, "count" | "createdOn" | "lastFetchedOn">, now: number): boolean {
  const lastFetch = loop.lastFetchedOn ?? loop.createdOn;
  return now - lastFetch <= (loop.count > 0 ? WORKER_BUSY_MS : WORKER_STALE_MS);
}

async function timed(name: string, check: () => Promise<void | "skip">): Promise<CheckResult | null> {
  const started = performance.now();
  try {
    if ((await withTimeout(check(), CHECK_TIMEOUT_MS)) === "skip") return null;
    return { status: "ok", durationMs: elapsed(started) };
  } catch (error) {
    const fields = errorFields(error);
    log.warn("readiness check failed", { check: name, ...fields });
    // Unauthenticated: our own sentences, else only the error's code (the full error is in the log).
    const shown =
      error instanceof CheckFailure
        ? error.message
        : `failed${fields.code ? ` (${fields.code})` : ""}; see the server log`;
    return { status: "fail", durationMs: elapsed(started), error: shown };
  }
}

const elapsed = (started: number) => Math.round((performance.now() - started) * 10) / 10;
