/**
 * bench:api's burst (issue #32, part 5): on a fresh embedded database, 5,000 single sends at 64
 * connections, then list and dashboard traffic while the in-process worker delivers the backlog.
 * Prints the sends' rate, the list's and the Overview's latencies during the drain and how long the
 * drain took. A benchmark: it prints figures and asserts none.
 */
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { closeDb, installDbHandle, type DbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { createUser } from "@/lib/domain/users/create-user";
import { seedDemo } from "@/lib/flows/setup/seed-demo";
import { BENCH_AUTH, BENCH_KEY, BENCH_KEY_USERNAME, percentile, sendBody, startServer, tempDir } from "./server";
import { firstRow } from "./seed-messages";

const SENDS = 5000;
const CONNECTIONS = 64;
const DRAIN_LIMIT_MS = 300_000;
const AUTH_SECRET = "bench-auth-secret-bench-auth-secret-0001";
const headers = { authorization: BENCH_AUTH, "content-type": "application/json" };

/** The bench key's workspace and an owner to sign the dashboard in with, seeded before the server owns the directory. */
async function seed(open: (dataDir: string) => Promise<DbHandle>, dataDir: string): Promise<string> {
  const handle = await open(dataDir);
  installDbHandle(handle);
  try {
    await migrateDatabase(handle);
    await seedDemo({ apiKey: BENCH_KEY });
    const workspace = firstRow<{ workspace_id: string }>(
      await handle.db.execute(sql`select workspace_id from api_keys where id = ${BENCH_KEY_USERNAME}`),
    ).workspace_id;
    const user = await createUser({
      email: "bench-burst@example.com",
      password: "bench-password-bench",
      workspaceId: workspace,
      role: "OWNER",
    });
    return user.id;
  } finally {
    await closeDb();
  }
}

async function sessionCookie(userId: string): Promise<string> {
  const token = await encode({
    token: { sub: userId, email: "bench-burst@example.com" },
    secret: AUTH_SECRET,
    salt: "authjs.session-token",
  });
  return `authjs.session-token=${token}`;
}

/** Requests one after another until `done`, each one's latency in ms. */
async function loop(done: () => boolean, request: () => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  while (!done()) {
    const started = performance.now();
    await request();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

async function expectOk(response: Response, what: string): Promise<void> {
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${what} answered ${response.status}`);
}

/** Messages of the bench workspace not yet handed to the provider (up to 50): the backlog; null when the list failed. */
async function backlog(base: string): Promise<number | null> {
  const response = await fetch(`${base}/email_messages?status=PENDING&limit=50`, { headers });
  if (response.status !== 200) {
    console.log(`  (backlog check answered ${response.status}: ${(await response.text()).slice(0, 200)})`);
    return null;
  }
  const page = (await response.json()) as { data: unknown[] };
  return page.data.length;
}

const summary = (latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return `${sorted.length} requests, p50 ${percentile(sorted, 0.5).toFixed(0)} ms, p99 ${percentile(sorted, 0.99).toFixed(0)} ms, max ${sorted[sorted.length - 1]?.toFixed(0)} ms`;
};

export async function burst(label: string, port: number, open: (dataDir: string) => Promise<DbHandle>): Promise<void> {
  const dir = tempDir();
  try {
    const userId = await seed(open, `${dir.dir}/pglite`);
    const server = await startServer(port, { DATA_DIR: dir.dir, AUTH_SECRET });
    const origin = server.base.replace(/\/api\/v1$/, "");
    const cookie = await sessionCookie(userId);
    try {
      await expectOk(await fetch(`${origin}/`, { headers: { cookie } }), "the Overview"); // compiles the page once
      let i = 0;
      const started = performance.now();
      const sends = await autocannon({
        url: `${server.base}/email_messages`,
        connections: CONNECTIONS,
        amount: SENDS,
        method: "POST",
        headers,
        setupClient: (client) => client.setBody(JSON.stringify(sendBody(i++))),
        timeout: 30,
      });
      const sendSeconds = (performance.now() - started) / 1000;
      console.log(
        `${label} (PGLITE_THREAD=${process.env.PGLITE_THREAD ?? "true"}): burst of ${SENDS.toLocaleString("en")} single sends at ${CONNECTIONS} connections`,
      );
      console.log(
        `  sends: ${(sends["2xx"] / sendSeconds).toFixed(0)} sends/s (${sendSeconds.toFixed(1)} s; p50 ${sends.latency.p50} ms, p99 ${sends.latency.p99} ms; non-2xx ${sends.non2xx}, timeouts ${sends.timeouts})`,
      );
      let drained = false;
      const drainStarted = performance.now();
      const [list, overview] = await Promise.all([
        Promise.all(
          Array.from({ length: 4 }, () =>
            loop(
              () => drained,
              async () => expectOk(await fetch(`${server.base}/email_messages?limit=50`, { headers }), "the list"),
            ),
          ),
        ).then((runs) => runs.flat()),
        loop(
          () => drained,
          async () => expectOk(await fetch(`${origin}/`, { headers: { cookie } }), "the Overview"),
        ),
        (async () => {
          while ((await backlog(server.base)) !== 0 && performance.now() - drainStarted < DRAIN_LIMIT_MS)
            await new Promise((resolve) => setTimeout(resolve, 250));
          drained = true;
        })(),
      ]);
      const drainSeconds = (performance.now() - drainStarted) / 1000;
      console.log(
        `  backlog drained ${drainSeconds.toFixed(1)} s after the last send` +
          (drainSeconds * 1000 >= DRAIN_LIMIT_MS ? " (NOT drained: stopped at the limit)" : "") +
          `; ${(SENDS / (sendSeconds + drainSeconds)).toFixed(0)} deliveries/s from the first send`,
      );
      console.log(`  GET /v1/email_messages?limit=50 while it drained (4 loops): ${summary(list)}`);
      console.log(`  GET / (the Overview, signed in) while it drained: ${summary(overview)}`);
    } finally {
      await server.stop();
    }
  } finally {
    dir.remove();
  }
}
