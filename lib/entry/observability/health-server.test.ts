import fs from "node:fs";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { startHealthServer, stopHealthServer } from "./health-server";

describe("the worker's health listener (WORKER_HEALTH_PORT)", () => {
  it("serves /health/live, /health/ready and /metrics like the server's routes", async () => {
    // Open as a worker's is when it serves: the test harness opens a file's database on first use, and an open
    // still under way is rightly "not ready" (a check has 2 s).
    await getDb();
    const server = await startHealthServer(0);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const live = await fetch(`${base}/health/live`);
      expect(live.status).toBe(200);
      const { version } = JSON.parse(fs.readFileSync("package.json", "utf8"));
      expect(await live.json()).toEqual({ status: "ok", version });
      const ready = await fetch(`${base}/health/ready`);
      expect(ready.status).toBe(200);
      expect((await ready.json()).checks.database.status).toBe("ok");
      expect((await fetch(`${base}/metrics`)).status).toBe(404); // METRICS_TOKEN unset
      expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
      expect((await fetch(`${base}/health/live`, { method: "POST" })).status).toBe(405);
    } finally {
      await stopHealthServer(server);
    }
  });
});
