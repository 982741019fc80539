/**
 * bench:api's burst phase (issue #32, part 5): a burst of single sends at 64 connections, and throughout it and
 * until the delivery queue is empty, the reads people make (two readers of the list API, one of the dashboard's
 * Emails page, signed in), timed by phase. The server runs its worker in-process, as the embedded mode does.
 */
import autocannon from "autocannon";
import { encode } from "next-auth/jwt";
import { sql } from "drizzle-orm";
import { installDbHandle, type DbHandle } from "@/db/client";
import { setupFirstOwner } from "@/lib/flows/setup/setup-first-owner";
import { BENCH_AUTH, BENCH_KEY_USERNAME, percentile, sendBody, type RunningServer } from "./server";
import { firstRow } from "./seed-messages";

export const BURST_AUTH_SECRET = "bench-auth-secret-bench-auth-secret-0003";
export const BURST_METRICS_TOKEN = "bench-metrics-token-0003";
const OWNER = { email: "burst@example.com", password: "burst-password-burst-password" };

/** The signed-in dashboard's cookies for the bench key's workspace: its owner made by the first-run setup. */
export async function dashboardCookie(handle: DbHandle): Promise<string> {
  installDbHandle(handle);
  const owner = await setupFirstOwner({ ...OWNER, workspaceName: "Burst owner" });
  const rows = (await handle.db.execute(
    sql`select workspace_id from api_keys where id = ${BENCH_KEY_USERNAME}`,
  )) as unknown;
  const { workspace_id: workspaceId } = firstRow<{ workspace_id: string }>(rows);
  const token = await encode({
    token: { sub: owner.id, email: OWNER.email },
    secret: BURST_AUTH_SECRET,
    salt: "authjs.session-token",
  });
  return `authjs.session-token=${token}; pw_workspace=${workspaceId}`;
}

interface Timed {
  samples: number[];
  failures: number;
}

const summary = (timed: Timed) => {
  if (timed.samples.length === 0) return `no requests, failed ${timed.failures}`;
  const sorted = [...timed.samples].sort((a, b) => a - b);
  const at = (p: number) => percentile(sorted, p).toFixed(0);
  return `${sorted.length} requests, p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms, failed ${timed.failures}`;
};

/** Deliveries not yet done: the delivery queue's created, retry and active jobs, from the metrics endpoint. */
async function deliveryBacklog(origin: string): Promise<number> {
  const response = await fetch(`${origin}/api/metrics`, {
    headers: { authorization: `Bearer ${BURST_METRICS_TOKEN}` },
  });
  const text = await response.text();
  let jobs = 0;
  for (const match of text.matchAll(/^postwerk_queue_jobs\{([^}]*)\} (\d+)/gm))
    if (match[1].includes('queue="deliver-message"')) jobs += Number(match[2]);
  return jobs;
}

const noSamples = (): Timed => ({ samples: [], failures: 0 });

/**
 * One reader fetching `url` back to back until `until` says stop, each answer timed into the phase it began in
 * (a non-200 counts as failed).
 */
async function reader(url: string, headers: Record<string, string>, into: () => Timed, until: () => boolean) {
  while (!until()) {
    const bucket = into();
    const started = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (response.status === 200) bucket.samples.push(performance.now() - started);
    else bucket.failures++;
  }
}

export async function burstThenReads(label: string, server: RunningServer, cookie: string, count: number) {
  const origin = server.base.replace(/\/api\/v1$/, "");
  const phase = { bursting: true, drained: false };
  const during = { list: noSamples(), page: noSamples() };
  const after = { list: noSamples(), page: noSamples() };
  const stop = () => phase.drained;
  const readers = Promise.all([
    reader(
      `${server.base}/email_messages?limit=50`,
      { authorization: BENCH_AUTH },
      () => (phase.bursting ? during : after).list,
      stop,
    ),
    reader(
      `${server.base}/email_messages?limit=50`,
      { authorization: BENCH_AUTH },
      () => (phase.bursting ? during : after).list,
      stop,
    ),
    reader(`${origin}/emails`, { cookie }, () => (phase.bursting ? during : after).page, stop),
  ]);
  let i = 0;
  const started = performance.now();
  let lastAnswer = started;
  const burst = await autocannon({
    url: `${server.base}/email_messages`,
    connections: 64,
    amount: count,
    method: "POST",
    headers: { authorization: BENCH_AUTH, "content-type": "application/json" },
    setupClient: (client) => {
      client.setBody(JSON.stringify(sendBody(i++)));
      client.on("response", () => (lastAnswer = performance.now()));
    },
  });
  // Until the last answer: autocannon resolves on its one-second tick, which rounded the rate to whole seconds.
  const burstSeconds = (lastAnswer - started) / 1000;
  phase.bursting = false;
  const backlogAfterBurst = await deliveryBacklog(origin);
  const drainStarted = performance.now();
  while ((await deliveryBacklog(origin)) > 0 && performance.now() - drainStarted < 300_000)
    await new Promise((resolve) => setTimeout(resolve, 250));
  phase.drained = true;
  await readers;
  const drainSeconds = (performance.now() - drainStarted) / 1000;
  // The same reads on the idle server afterwards, one at a time: what a burst adds to them.
  const idle = { list: noSamples(), page: noSamples() };
  let idleReads = 0;
  const enough = () => idleReads++ >= 20;
  await reader(`${server.base}/email_messages?limit=50`, { authorization: BENCH_AUTH }, () => idle.list, enough);
  idleReads = 0;
  await reader(`${origin}/emails`, { cookie }, () => idle.page, enough);
  console.log(
    `${label}: burst of ${count} single sends at 64 connections, 2 list readers and 1 dashboard reader throughout`,
  );
  console.log(
    `  sends: ${(burst["2xx"] / burstSeconds).toFixed(0)} sends/s (${burst["2xx"]} accepted in ${burstSeconds.toFixed(1)} s, ` +
      `p50 ${burst.latency.p50} ms, p99 ${burst.latency.p99} ms, non-2xx ${burst.non2xx}, timeouts ${burst.timeouts})`,
  );
  console.log(
    `  deliveries left when the burst ended: ${backlogAfterBurst}; drained ${drainSeconds.toFixed(1)} s later`,
  );
  console.log(`  GET /v1/email_messages?limit=50 during the burst: ${summary(during.list)}`);
  console.log(`  GET /v1/email_messages?limit=50 while the backlog drained: ${summary(after.list)}`);
  console.log(`  dashboard /emails (signed in) during the burst: ${summary(during.page)}`);
  console.log(`  dashboard /emails (signed in) while the backlog drained: ${summary(after.page)}`);
  console.log(`  idle afterwards, one at a time: list ${summary(idle.list)}; /emails ${summary(idle.page)}`);
}
