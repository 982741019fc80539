import os from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { workerHeartbeats } from "@/db/schema";
import { getQueue } from "@/lib/records/queue/queue";
import { lastWorkerHeartbeat, recordWorkerHeartbeat } from "@/lib/records/queue/worker-heartbeats";
import { beatOnce } from "./heartbeat";
import { startWorkers, stopWorkers } from "./worker";

describe("worker heartbeats (what readiness reads across processes)", () => {
  afterEach(async () => {
    await stopWorkers();
    await (await getDb()).delete(workerHeartbeats);
  });

  it("starting the workers stamps this process at once; stopping keeps the row so it ages out", async () => {
    expect(await lastWorkerHeartbeat()).toBeNull();
    await startWorkers({ concurrency: 1 });
    const rows = await (await getDb()).select().from(workerHeartbeats);
    expect(rows).toEqual([
      { id: `${os.hostname()}:${process.pid}`, startedAt: expect.any(Date), seenAt: expect.any(Date) },
    ]);
    expect(await lastWorkerHeartbeat()).toEqual(rows[0].seenAt);
    await stopWorkers();
    expect(await (await getDb()).select().from(workerHeartbeats)).toHaveLength(1);
  });

  it("a process without delivery loops does not count as a worker", async () => {
    expect(await beatOnce(await getQueue(), "host-b:7", new Date())).toBe(false);
    expect(await lastWorkerHeartbeat()).toBeNull();
  });

  it("the latest stamp of any process counts; rows silent for a day are forgotten", async () => {
    const now = new Date("2030-01-02T00:00:00.000Z");
    await recordWorkerHeartbeat("host-old:1", now, new Date("2029-12-31T00:00:00.000Z"));
    await recordWorkerHeartbeat("host-b:7", now, new Date("2030-01-01T23:59:00.000Z"));
    await recordWorkerHeartbeat("host-c:9", now, now);
    expect(await lastWorkerHeartbeat()).toEqual(now);
    const ids = (await (await getDb()).select().from(workerHeartbeats)).map((row) => row.id).sort();
    expect(ids).toEqual(["host-b:7", "host-c:9"]);
  });
});
