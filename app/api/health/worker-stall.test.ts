import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { workerHeartbeats } from "@/db/schema";
import { setClock } from "@/lib/foundation/clock";
import { env } from "@/lib/foundation/env";
import { processSingleton } from "@/lib/foundation/process-singleton";
import { getQueue, QUEUES } from "@/lib/records/queue/queue";
import { countWaitingJobs, queueLag } from "@/lib/records/queue/queue-lag";
import { recordWorkerHeartbeat } from "@/lib/records/queue/worker-heartbeats";
import { callRoute } from "@/lib/testing/http";
import { useSettings } from "@/lib/testing/settings";
import { GET as ready } from "./ready/route";

/** Readiness is cached for a second; each call here forgets it so the moved clock is what it sees. */
async function readiness() {
  delete processSingleton<{ readiness?: unknown }>("health.readiness", () => ({})).readiness;
  return callRoute(ready, "/api/health/ready");
}

/** A delivery job no worker takes (none runs in this process), and when pg-boss created it. */
async function waitingDelivery(options: { startAfter?: Date } = {}): Promise<{ id: string; createdOn: Date }> {
  const boss = await getQueue();
  const id = await boss.send(QUEUES.deliverMessage, { workspaceId: "ws_stall", messageId: "msg_stall" }, options);
  const job = await boss.getJobById(QUEUES.deliverMessage, id!);
  return { id: id!, createdOn: job!.createdOn };
}

const at = (base: Date, seconds: number) => new Date(base.getTime() + seconds * 1000);

describe("readiness fails when mail waits and no worker runs (READY_WORKER_STALL_SECONDS, default 120)", () => {
  const jobs: string[] = [];
  // As a process does at boot, before a probe comes (a first check that started the queue could pass the 2 s limit).
  beforeAll(async () => {
    await getDb();
    await getQueue();
  }, 60_000);
  afterEach(async () => {
    setClock(null);
    useSettings({ READY_WORKER_STALL_SECONDS: undefined });
    const boss = await getQueue();
    for (const id of jobs.splice(0)) await boss.deleteJob(QUEUES.deliverMessage, id);
    await (await getDb()).delete(workerHeartbeats);
  });

  it("an idle instance is ready however long no worker has checked in", async () => {
    setClock(() => at(new Date(), 86_400));
    const res = await readiness();
    expect(res.status).toBe(200);
    expect(res.json.checks.worker).toMatchObject({ status: "ok" });
  });

  it("a delivery due for 200 s with no worker ever checked in: 503 naming the worker", async () => {
    const job = await waitingDelivery();
    jobs.push(job.id);
    setClock(() => at(job.createdOn, 200));
    const res = await readiness();
    expect(res.status).toBe(503);
    expect(res.json.status).toBe("fail");
    expect(res.json.checks.worker).toMatchObject({
      status: "fail",
      error:
        "no worker has checked in while 1 delivery waits, the oldest for 200 s (RUN_WORKER=false and no `npm run worker`?)",
    });
    // The other checks still answer as before.
    expect(res.json.checks.database.status).toBe("ok");
  });

  it("a worker that last checked in 190 s ago is gone: 503 with how long", async () => {
    const first = await waitingDelivery();
    const second = await waitingDelivery();
    jobs.push(first.id, second.id);
    await recordWorkerHeartbeat("host-a:41", first.createdOn, at(first.createdOn, 10));
    setClock(() => at(first.createdOn, 200));
    const res = await readiness();
    expect(res.status).toBe(503);
    expect(res.json.checks.worker.error).toMatch(
      /^no worker has checked in for 190 s while 2 deliveries wait, the oldest for 200 s /,
    );
  });

  it("a worker that checked in within the bound is busy, not gone: 200 while the backlog drains", async () => {
    const job = await waitingDelivery();
    jobs.push(job.id);
    await recordWorkerHeartbeat("host-a:41", job.createdOn, at(job.createdOn, 190));
    setClock(() => at(job.createdOn, 200));
    expect((await readiness()).status).toBe(200);
    // The same worker silent past the bound is gone.
    setClock(() => at(job.createdOn, 311));
    expect((await readiness()).status).toBe(503);
  });

  it("mail younger than the bound, or scheduled for later, does not fail readiness", async () => {
    const job = await waitingDelivery();
    const scheduled = await waitingDelivery({ startAfter: at(job.createdOn, 3600) });
    jobs.push(job.id, scheduled.id);
    setClock(() => at(job.createdOn, 119));
    expect((await readiness()).status).toBe(200);
    // Once the first has waited 121 s, only it counts: the scheduled one is not due.
    setClock(() => at(job.createdOn, 121));
    const res = await readiness();
    expect(res.status).toBe(503);
    expect(res.json.checks.worker.error).toMatch(/while 1 delivery waits, the oldest for 121 s/);
  });

  it("queue lag: per queue, how long the next job has been due; 0 when nothing waits", async () => {
    const job = await waitingDelivery();
    jobs.push(job.id);
    const now = at(job.createdOn, 42);
    const lag = await queueLag([QUEUES.deliverMessage, QUEUES.workflowStep], now);
    // PostgreSQL keeps microseconds, a Date milliseconds.
    expect(lag.get(QUEUES.deliverMessage)).toBeCloseTo(42, 2);
    expect(lag.get(QUEUES.workflowStep)).toBe(0);
    expect(await countWaitingJobs(QUEUES.deliverMessage, 10, now)).toBe(1);
    // Not yet due before its creation.
    expect(await countWaitingJobs(QUEUES.deliverMessage, 10, at(job.createdOn, -1))).toBe(0);
  });

  it("the bound is configurable, 0 turns the check off, and a bound shorter than two heartbeats is refused", async () => {
    const job = await waitingDelivery();
    jobs.push(job.id);
    setClock(() => at(job.createdOn, 200));
    useSettings({ READY_WORKER_STALL_SECONDS: "300" });
    expect((await readiness()).status).toBe(200);
    useSettings({ READY_WORKER_STALL_SECONDS: "0" });
    const off = await readiness();
    expect(off.status).toBe(200);
    expect(off.json.checks.worker).toBeUndefined();
    useSettings({ READY_WORKER_STALL_SECONDS: "10" });
    expect(() => env()).toThrow(/READY_WORKER_STALL_SECONDS: must be 0 \(off\) or 30 to 86400/);
  });
});
