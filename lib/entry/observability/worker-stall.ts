import "server-only";
import { env } from "@/lib/foundation/env";
import { now as clockNow } from "@/lib/foundation/clock";
import { plural } from "@/lib/foundation/plural.shared";
import { QUEUES } from "@/lib/records/queue/queue";
import { countWaitingJobs, queueLag } from "@/lib/records/queue/queue-lag";
import { lastWorkerHeartbeat } from "@/lib/records/queue/worker-heartbeats";

/** Waiting deliveries are counted up to this for the sentence; a larger backlog reads "more than 10000". */
const COUNT_LIMIT = 10_000;

/**
 * Why mail is not moving, or null when it is: a delivery due for longer than READY_WORKER_STALL_SECONDS while no
 * worker process has checked in (lib/entry/worker/heartbeat.ts) for as long. Nothing waiting (idle) or a worker that
 * checked in (busy with a backlog) is fine. One indexed query while mail moves; two more only when it is late.
 */
export async function workerStall(now: Date = clockNow()): Promise<string | null> {
  const bound = env().READY_WORKER_STALL_SECONDS;
  const lag = (await queueLag([QUEUES.deliverMessage], now)).get(QUEUES.deliverMessage) ?? 0;
  if (lag <= bound) return null;
  const seen = await lastWorkerHeartbeat();
  const silentSeconds = seen ? Math.round((now.getTime() - seen.getTime()) / 1000) : null;
  if (silentSeconds !== null && silentSeconds <= bound) return null;
  const waiting = await countWaitingJobs(QUEUES.deliverMessage, COUNT_LIMIT + 1, now);
  const deliveries =
    waiting > COUNT_LIMIT
      ? `more than ${COUNT_LIMIT} deliveries wait`
      : `${plural(waiting, "delivery", "deliveries")} ${waiting === 1 ? "waits" : "wait"}`;
  const worker =
    silentSeconds === null ? "no worker has checked in" : `no worker has checked in for ${silentSeconds} s`;
  return `${worker} while ${deliveries}, the oldest for ${Math.round(lag)} s (RUN_WORKER=false and no \`npm run worker\`?)`;
}
