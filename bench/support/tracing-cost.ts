/**
 * `npm run bench:api -- --tracing` (issue 35): what traces cost a send. First the span helpers' own cost while tracing
 * is off, in this process. Then, end to end, for each mode (off, on with sampling 1.0, on with 0.01, on with
 * always_off), alternating over `rounds`: a scratch PostgreSQL database, the built app with
 * RUN_WORKER=false and the built worker (dist/worker.mjs) as a second process, both exporting to a real OTLP/HTTP
 * receiver in this process; sends at 32 connections for `duration` seconds, then until the worker has sent them all.
 * Prints the CPU per send of the app, the worker and PostgreSQL's backends (idle CPU subtracted), and the spans
 * exported per send. CPU, not rates, is the figure to compare: the machine is shared.
 */
import { spawn } from "node:child_process";
import autocannon from "autocannon";
import postgres from "postgres";
import { inSpan, setTracingOn } from "@/lib/foundation/tracing";
import { freePort } from "@/lib/testing/free-port";
import { startOtlpReceiver, type OtlpReceiver } from "@/lib/testing/otlp-receiver";
import { cpuSnapshot, loadAverage } from "./proc-cpu";
import { BENCH_AUTH, scratchPostgres, sendBody, startServer, tempDir } from "./server";

const MODES: Array<{ label: string; env: Record<string, string> | null }> = [
  { label: "tracing off", env: null },
  { label: "tracing on, sampling 1.0", env: { OTEL_TRACES_SAMPLER: "parentbased_always_on" } },
  {
    label: "tracing on, sampling 0.01",
    env: { OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.01" },
  },
  // The SDK loaded and the context stored, but nothing sampled: what tracing costs before any span is recorded.
  { label: "tracing on, always_off", env: { OTEL_TRACES_SAMPLER: "always_off" } },
];

export async function tracingCost(options: { pgUrl: string; port: number; duration: number; rounds: number }) {
  await helpersWhileOff();
  const receiver = await startOtlpReceiver();
  try {
    console.log(
      `tracing cost: load average ${loadAverage()}, ${options.rounds} round(s), ${options.duration} s of sends`,
    );
    for (let round = 1; round <= options.rounds; round++)
      for (const mode of MODES) await oneMode(mode, receiver, options);
  } finally {
    await receiver.close();
  }
}

/**
 * What the span helpers cost while tracing is off, in this process: a million awaited calls through inSpan against
 * the same calls made bare, alternating. A send makes about fifteen such calls (request, render, accept, the trace
 * context; deliver, build, hand-off, their attributes).
 */
async function helpersWhileOff() {
  setTracingOn(false);
  const work = async () => 1;
  const calls = 1_000_000;
  const time = async (call: () => Promise<number>) => {
    const started = process.cpuUsage();
    for (let i = 0; i < calls; i++) await call();
    const used = process.cpuUsage(started);
    return ((used.user + used.system) * 1000) / calls; // ns per call
  };
  const bare: number[] = [];
  const helper: number[] = [];
  for (let round = 0; round < 3; round++) {
    bare.push(await time(work));
    helper.push(await time(() => inSpan("off", { attributes: { "postwerk.bench": round } }, work)));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[1];
  const extra = median(helper) - median(bare);
  console.log(
    `tracing off, the helpers alone: an awaited call ${median(bare).toFixed(0)} ns bare, ` +
      `${median(helper).toFixed(0)} ns through inSpan (+${extra.toFixed(0)} ns); ` +
      `about 15 calls a send: ${((extra * 15) / 1000).toFixed(2)} µs of CPU per send`,
  );
}

async function oneMode(
  mode: (typeof MODES)[number],
  receiver: OtlpReceiver,
  options: { pgUrl: string; port: number; duration: number },
) {
  const database = await scratchPostgres(options.pgUrl);
  if (!database) return;
  const dataDir = tempDir();
  const tracing = mode.env
    ? {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        ...mode.env,
      }
    : {};
  const env = { DATABASE_URL: database.url, DATA_DIR: dataDir.dir, RUN_WORKER: "false", ...tracing };
  const server = await startServer(options.port, env);
  const worker = await startWorker(env);
  const client = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    await sends(server.base, 3); // warm-up: plans, pools, the worker's first batches
    await drained(client);
    const pids = [server.pid, worker.pid];
    const idle = await idleCpu(pids, database.name);
    const spansBefore = receiver.spans.length;
    const before = cpuSnapshot([server.pid], database.name);
    const workerBefore = cpuSnapshot([worker.pid], null).app;
    const started = performance.now();
    const accepted = await sends(server.base, options.duration);
    await drained(client);
    const elapsed = (performance.now() - started) / 1000;
    const after = cpuSnapshot([server.pid], database.name);
    const workerAfter = cpuSnapshot([worker.pid], null).app;
    await new Promise((resolve) => setTimeout(resolve, 6000)); // the exporters' last batches
    const per = (cpu: number, idlePerSecond: number) => ((cpu - idlePerSecond * elapsed) / accepted) * 1000;
    const app = per(after.app - before.app, idle.app);
    const work = per(workerAfter - workerBefore, idle.worker);
    const db = per(after.db - before.db, idle.db);
    const spans = (receiver.spans.length - spansBefore) / accepted;
    console.log(
      `  ${mode.label.padEnd(26)} ${(accepted / options.duration).toFixed(0).padStart(5)} sends/s; CPU per send: ` +
        `app ${app.toFixed(2)} ms, worker ${work.toFixed(2)} ms, PostgreSQL ${db.toFixed(2)} ms, ` +
        `total ${(app + work + db).toFixed(2)} ms; ${spans.toFixed(2)} spans exported per send`,
    );
    receiver.spans.length = 0;
  } finally {
    await client.end();
    await worker.stop();
    await server.stop();
    await database.drop();
    dataDir.remove();
  }
}

/** Sends at 32 connections for `seconds`; the number accepted (201). */
async function sends(base: string, seconds: number): Promise<number> {
  let i = 0;
  const result = await autocannon({
    url: `${base}/email_messages`,
    connections: 32,
    duration: seconds,
    method: "POST",
    headers: { authorization: BENCH_AUTH, "content-type": "application/json" },
    setupClient: (client) => client.setBody(JSON.stringify(sendBody(i++))),
  });
  return result["2xx"];
}

async function drained(client: postgres.Sql): Promise<void> {
  for (;;) {
    const [{ left }] = await client<Array<{ left: number }>>`
      select count(*)::int as left from email_messages where status in ('PENDING', 'SCHEDULED')`;
    if (left === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function idleCpu(pids: number[], database: string) {
  const before = { app: cpuSnapshot([pids[0]], database), worker: cpuSnapshot([pids[1]], null).app };
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const after = { app: cpuSnapshot([pids[0]], database), worker: cpuSnapshot([pids[1]], null).app };
  return {
    app: (after.app.app - before.app.app) / 3,
    db: (after.app.db - before.app.db) / 3,
    worker: (after.worker - before.worker) / 3,
  };
}

/** The built worker (dist/worker.mjs, as the artefact runs it), ready once its health port answers. */
async function startWorker(env: Record<string, string>) {
  const healthPort = await freePort();
  const child = spawn("node", ["dist/worker.mjs"], {
    env: { ...process.env, LOG_LEVEL: "warn", WORKER_HEALTH_PORT: String(healthPort), ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the worker exited with ${child.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${healthPort}/health/ready`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    pid: child.pid!,
    stop: async () => {
      child.kill("SIGTERM");
      if (child.exitCode === null) await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}
