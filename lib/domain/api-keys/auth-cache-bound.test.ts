import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { exitOf } from "@/lib/testing/worker-process";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { SHORT_LIVED_CACHE_MS } from "@/lib/foundation/short-lived-cache";
import { authenticateApiKey } from "./authenticate-api-key";
import { revokeApiKeyOrThrow } from "./revoke-api-key";

/**
 * The cache of key rows (lib/foundation/short-lived-cache.ts): a revocation holds at once in the process that
 * made it, and in every other process for each request that starts more than SHORT_LIVED_CACHE_MS
 * after the revocation committed. Checked from the requests' own start times, so a slow machine
 * cannot make it pass or fail by timing.
 */
describe("the key cache's invalidation bound", () => {
  it("a revoked key is refused from the next request on in the revoking process", async () => {
    const ws = await createTestWorkspace();
    await authenticateApiKey(ws.authorization); // cached now
    await authenticateApiKey(ws.authorization);
    await revokeApiKeyOrThrow(ws.workspace.id, ws.key.id, AUDIT_SYSTEM_ACTOR);
    await expect(authenticateApiKey(ws.authorization)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "another process refuses it for every request that starts more than the bound after the revocation (PostgreSQL)",
    async () => {
      const ws = await createTestWorkspace();
      const child = spawn(
        process.execPath,
        ["--conditions=react-server", "--import", "tsx", "lib/testing/auth-probe.ts"],
        {
          env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "silent", PROBE_AUTHORIZATION: ws.authorization },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let output = "";
      let errors = "";
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (errors += chunk));
      const attempts = () =>
        output
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as { started: number; accepted: boolean });
      const until = async (check: () => boolean) => {
        const deadline = Date.now() + 25_000;
        while (!check()) {
          if (Date.now() > deadline || child.exitCode !== null)
            throw new Error(`probe: ${errors || output.slice(-500)}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      try {
        await until(() => attempts().filter((a) => a.accepted).length >= 3); // the probe holds the row in its cache
        await revokeApiKeyOrThrow(ws.workspace.id, ws.key.id, AUDIT_SYSTEM_ACTOR);
        const committed = Date.now();
        await until(() => attempts().filter((a) => a.started > committed + SHORT_LIVED_CACHE_MS).length >= 5);
        const late = attempts().filter((a) => a.started > committed + SHORT_LIVED_CACHE_MS);
        expect(late.filter((a) => a.accepted)).toEqual([]);
        expect(attempts().some((a) => a.accepted && a.started < committed)).toBe(true);
      } finally {
        child.kill("SIGTERM");
        await exitOf(child);
      }
    },
  );
});
