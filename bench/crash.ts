/**
 * npm run bench:crash [-- --count 10000 --runs 5 --seed 1 --hold-recording --pg-url postgres://…]
 *
 * The SMTP kill window, measured (docs/delivery.md "Crash safety"): per run, `--count` messages are
 * accepted through sendBatch and delivered by one `npm run worker` process (DELIVERY_PROVIDER=smtp) to
 * the stand-in relay (bench/relay-sink.ts), which is SIGKILLed at a random moment (between 5 % and 95 %
 * of the messages taken, from a seeded generator) and replaced at once. Prints per run: lost (messages
 * the relay never got or that did not end SUCCEEDED with one SENT; must be 0), duplicates (extra copies
 * the relay received), and the worst case against the bound, DELIVERY_MAX_UNRECORDED (4 × SMTP_POOL_SIZE
 * unless set). With --hold-recording each kill comes after the recording was held back until the relay
 * went quiet (killWithRecordingHeld: what a slow database leads to), so the window is as full as it gets:
 * the worst case. PostgreSQL only: a worker process cannot open the embedded database. Exits 1 when
 * something was lost or the bound was exceeded.
 */
import { parseArgs } from "node:util";
import { closeDb, getDbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { resetEnvForTests } from "@/lib/foundation/env";
import { setLogLevel } from "@/lib/foundation/log";
import { stopQueue, getQueue } from "@/lib/records/queue/queue";
import { unrecordedLimit } from "@/lib/delivery/unrecorded-gate";
import { killDuringDelivery, killWithRecordingHeld, startFastSupervisor } from "@/lib/testing/kill-during-delivery";
import { startRelaySink } from "./support/relay-sink";
import { scratchPostgres, seconds, tempDir } from "./support/server";

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "10000" },
    runs: { type: "string", default: "5" },
    seed: { type: "string", default: "1" },
    "hold-recording": { type: "boolean", default: false },
    "pg-url": {
      type: "string",
      default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
  },
});
const COUNT = Number(args.count);
const RUNS = Number(args.runs);

/** mulberry32: the kill moments repeat with the seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main(): Promise<number> {
  const database = await scratchPostgres(args["pg-url"]!);
  if (!database) return 1;
  const dataDir = tempDir();
  const sink = await startRelaySink();
  process.env.DATABASE_URL = database.url;
  process.env.DATA_DIR = dataDir.dir;
  process.env.RATE_LIMIT_PER_SECOND = "0";
  resetEnvForTests();
  setLogLevel("warn");
  const bound = unrecordedLimit();
  const next = random(Number(args.seed));
  const duplicatesPerRun: number[] = [];
  let lostTotal = 0;
  let stopSupervisor: (() => Promise<void>) | undefined;
  try {
    await migrateDatabase(await getDbHandle());
    await getQueue();
    stopSupervisor = await startFastSupervisor(database.url);
    const how = args["hold-recording"] ? "after holding the recording back" : "at a random moment";
    console.log(
      `bench:crash: ${RUNS} runs of ${COUNT} messages, one SIGKILL each ${how}; bound (DELIVERY_MAX_UNRECORDED) ${bound} per killed worker`,
    );
    for (let run = 1; run <= RUNS; run++) {
      await sink.reset();
      const killAfter = Math.round(COUNT * (0.05 + 0.9 * next()));
      const result = await killDuringDelivery({
        databaseUrl: database.url,
        workerEnv: { DATA_DIR: dataDir.dir, DELIVERY_PROVIDER: "smtp", SMTP_URL: sink.url, RATE_LIMIT_PER_SECOND: "0" },
        count: COUNT,
        delivered: () => sink.received(),
        killAfter,
        killWith: args["hold-recording"] ? killWithRecordingHeld(() => sink.received()) : undefined,
        timeoutMs: 600_000,
      });
      const lost = COUNT - sink.distinct() + result.unsettled;
      const duplicates = sink.received() - sink.distinct();
      lostTotal += lost;
      duplicatesPerRun.push(duplicates);
      console.log(
        `run ${run}: killed at ${result.deliveredAtKill}/${COUNT} taken by the relay, ${result.activeAtKill} jobs active; ` +
          `all SUCCEEDED ${seconds(result.recoveredMs)} after the kill; lost ${lost}; duplicates ${duplicates}`,
      );
    }
  } finally {
    await stopSupervisor?.();
    await stopQueue();
    await closeDb();
    await sink.close();
    await database.drop();
    dataDir.remove();
  }
  const worst = Math.max(...duplicatesPerRun);
  console.log(
    `worst case: ${worst} duplicates (bound ${bound}); duplicates per run: ${duplicatesPerRun.join(", ")}; lost in all runs: ${lostTotal}`,
  );
  return lostTotal === 0 && worst <= bound ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
