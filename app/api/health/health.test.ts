import fs from "node:fs";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDbHandle, installDbHandle, openPglite, openPostgres, type Db, type DbHandle } from "@/db/client";
import { loopAlive } from "@/lib/entry/observability/health";
import { processSingleton } from "@/lib/foundation/process-singleton";
import { callRoute } from "@/lib/testing/http";
import { startWorkers, stopWorkers } from "@/lib/entry/worker/worker";
import { getQueue } from "@/lib/records/queue/queue";
import { GET as live } from "./live/route";
import { GET as ready } from "./ready/route";

/**
 * Readiness is cached for a second (a probe storm costs one check): each case forgets the cached
 * result instead of waiting it out (lib/entry/observability/health.ts keeps it in this singleton).
 */
const forgetCachedReadiness = () =>
  void delete processSingleton<{ readiness?: unknown }>("health.readiness", () => ({})).readiness;

describe("GET /api/health/*", () => {
  // A process opens its database and starts its queue at boot, before a probe comes: a first check that did both
  // under a loaded test run took longer than the checks' 2 s limit.
  beforeAll(async () => {
    await getDbHandle();
    await getQueue();
  }, 60_000);
  let original: DbHandle | undefined;
  afterEach(async () => {
    if (original) installDbHandle(original);
    original = undefined;
    forgetCachedReadiness();
  });

  it("live answers 200 without touching anything, naming package.json's version", async () => {
    const { version } = JSON.parse(fs.readFileSync("package.json", "utf8"));
    const res = await callRoute(live, "/api/health/live");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "ok", version });
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("ready answers 200 on a migrated database, with each check's status and duration", async () => {
    const res = await callRoute(ready, "/api/health/ready");
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("ok");
    for (const name of ["database", "migrations", "queue"]) {
      expect(res.json.checks[name]).toMatchObject({ status: "ok", durationMs: expect.any(Number) });
    }
    // No worker loops in this process: the check does not apply.
    expect(res.json.checks.workers).toBeUndefined();
  });

  it("ready answers 503 while the database is closed, and 200 again once it is back", async () => {
    original = await getDbHandle();
    const dead =
      original.driver === "pglite" ? await openPglite("memory://") : await openPostgres(process.env.DATABASE_URL!, 1);
    await dead.close();
    installDbHandle(dead);
    const down = await callRoute(ready, "/api/health/ready");
    expect(down.status).toBe(503);
    expect(down.json.status).toBe("fail");
    expect(down.json.checks.database.status).toBe("fail");
    expect(down.json.checks.database.error).toMatch(/see the server log/);

    installDbHandle(original);
    forgetCachedReadiness();
    const up = await callRoute(ready, "/api/health/ready");
    expect(up.status).toBe(200);
  });

  it.skipIf(!process.env.DATABASE_URL)("ready answers 503 when the database server is unreachable", async () => {
    original = await getDbHandle();
    // A port nothing listens on: every query fails to connect.
    const client = postgres("postgres://postgres@127.0.0.1:1/postgres", {
      max: 1,
      connect_timeout: 1,
      onnotice: () => {},
    });
    installDbHandle({
      db: drizzle(client) as unknown as Db,
      driver: "postgres",
      connectionString: "postgres://127.0.0.1:1/postgres",
      close: () => client.end(),
    });
    const down = await callRoute(ready, "/api/health/ready");
    expect(down.status).toBe(503);
    expect(down.json.checks.database.status).toBe("fail");
    await client.end();
  });

  it("ready checks the worker loops of a process that runs them", async () => {
    await startWorkers({ concurrency: 1 });
    try {
      const res = await callRoute(ready, "/api/health/ready");
      expect(res.status).toBe(200);
      expect(res.json.checks.workers).toMatchObject({ status: "ok" });
    } finally {
      await stopWorkers();
    }
  });

  it("a worker loop is stale after 60 s without a fetch, or 180 s while busy with one batch", () => {
    const now = 1_000_000;
    expect(loopAlive({ count: 0, createdOn: 0, lastFetchedOn: now - 5_000 }, now)).toBe(true);
    expect(loopAlive({ count: 0, createdOn: 0, lastFetchedOn: now - 61_000 }, now)).toBe(false);
    expect(loopAlive({ count: 3, createdOn: 0, lastFetchedOn: now - 120_000 }, now)).toBe(true);
    expect(loopAlive({ count: 3, createdOn: 0, lastFetchedOn: now - 181_000 }, now)).toBe(false);
    expect(loopAlive({ count: 0, createdOn: now - 1_000, lastFetchedOn: null }, now)).toBe(true);
  });
});
