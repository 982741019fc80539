import { sql } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { waitFor } from "@/lib/testing/wait-for";
import { openPostgres } from "./client";
import { databaseUnavailableCode } from "./unavailable";

/**
 * postgres.js 3.4.9 never reset its write buffer when a connection closed (porsager/postgres#1176,
 * #1208): after backends were terminated, a pool slot could queue its next startup message forever,
 * so requests hung until connect_timeout and only a restart healed the pool. internals/patches/ carries the
 * fix (docs/development.md#traps). This proves recovery the way an operator meets it: the backends
 * are terminated under load, and every query answers again (how fast is bench/'s to measure).
 */
const serverUrl = process.env.DATABASE_URL;
/**
 * A query unanswered this long is hung, not slow: the faults held queries until connect_timeout
 * (30 s), a reconnect backoff (10–20 s) or forever, where a healthy pool answers in milliseconds.
 */
const HUNG_MS = 8_000;

describe.skipIf(!serverUrl)("the PostgreSQL pool recovers from terminated backends", () => {
  it("answers again after every backend was terminated mid-load, three times over", async () => {
    // The product's own pool, with its settings (db/client.ts).
    const handle = await openPostgres(serverUrl!, 8);
    const query = (n: number) => handle.db.execute<{ n: number }>(sql`select ${n}::int as n, pg_sleep(0.01)`);
    const admin = postgres(serverUrl!, { max: 1, onnotice: () => {} });
    const database = new URL(serverUrl!).pathname.slice(1);
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", onUncaught);
    try {
      for (let round = 0; round < 3; round++) {
        // Small queries queued on every slot (each under the driver's 1 KB immediate-write size), kept
        // coming until the backends are terminated, which happens once the server is running them.
        let terminated = false;
        const load = Array.from({ length: 64 }, async (_, index) => {
          while (!terminated) await query(index).catch(() => null);
        });
        await waitFor(
          async () =>
            (
              await admin`select 1 from pg_stat_activity where datname = ${database} and pid <> pg_backend_pid() and state = 'active' and query like '%pg_sleep%'`
            ).length > 0,
          { what: "the load's queries to reach the server", every: 1 },
        );
        await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${database} and pid <> pg_backend_pid()`;
        terminated = true;
        await Promise.all(load);
        const answers = await Promise.all(
          Array.from({ length: 32 }, (_, index) =>
            withTimeout(
              retryOnClosed(() => query(index)),
              HUNG_MS,
            ),
          ),
        );
        expect(answers.map((rows) => Number(rows[0].n))).toEqual(Array.from({ length: 32 }, (_, index) => index));
      }
      expect(uncaught).toEqual([]);
    } finally {
      process.off("uncaughtException", onUncaught);
      await handle.close();
      await admin.end({ timeout: 1 });
    }
  }, 30_000);
});

/**
 * A query that met a connection as it closed fails (CONNECTION_CLOSED, 57P01: the API answers 503 then);
 * a client retries it. What must not happen is a query that never answers: withTimeout catches a hang.
 */
async function retryOnClosed<T>(query: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await query();
    } catch (error) {
      if (attempt >= 5 || !databaseUnavailableCode(error)) throw error;
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms: the pool hangs`)), ms)),
  ]);
}
