import "server-only";
import os from "node:os";
import type { PgBoss } from "pg-boss";
import { loopAlive } from "@/lib/entry/observability/health";
import { now } from "@/lib/foundation/clock";
import { errorFields, log } from "@/lib/foundation/log";
import { processSingleton } from "@/lib/foundation/process-singleton";
import { QUEUES } from "@/lib/records/queue/queue";
import { recordWorkerHeartbeat } from "@/lib/records/queue/worker-heartbeats";

/** Well inside READY_WORKER_STALL_SECONDS (at least 30): one missed beat never makes a live worker look gone. */
export const HEARTBEAT_INTERVAL_MS = 15_000;

const state = processSingleton<{ timer?: NodeJS.Timeout; beat?: Promise<unknown> }>("worker.heartbeat", () => ({}));

/** Every worker process (the server's embedded one and `npm run worker`) tells the database it is alive. */
export async function startWorkerHeartbeat(boss: PgBoss): Promise<void> {
  if (state.timer) return;
  const id = `${os.hostname()}:${process.pid}`;
  const startedAt = now();
  const beat = () => {
    // A beat still waiting on a slow database is not doubled.
    state.beat ??= beatOnce(boss, id, startedAt)
      .catch((error: unknown) => log.warn("worker heartbeat failed", errorFields(error)))
      .finally(() => (state.beat = undefined));
    return state.beat;
  };
  state.timer = setInterval(beat, HEARTBEAT_INTERVAL_MS);
  state.timer.unref();
  await beat();
}

export async function stopWorkerHeartbeat(): Promise<void> {
  clearInterval(state.timer);
  state.timer = undefined;
  await state.beat;
}

/**
 * Stamps this process only while one of its delivery loops fetches (or works within a job's time, as the readiness
 * `workers` check judges it): a process whose loops are stuck takes no mail, so it must not count as a worker.
 */
export async function beatOnce(boss: PgBoss, id: string, startedAt: Date): Promise<boolean> {
  // pg-boss stamps its loops with the wall clock, so they are judged by it too.
  const loops = boss.getWipData({ includeInternal: false }).filter((loop) => loop.name === QUEUES.deliverMessage);
  if (!loops.some((loop) => loopAlive(loop, Date.now()))) return false;
  await recordWorkerHeartbeat(id, startedAt, now());
  return true;
}
