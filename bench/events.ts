/**
 * npm run bench:events [-- --skip-build --count 5000 --concurrency 32 --through-next]
 *
 * Provider events ingested per second through each door, with the server's CPU per event, on the
 * PostgreSQL server (a scratch database; the built app runs with RUN_WORKER=false so nothing else
 * competes for the two cores). Doors: SNS notifications of SES events over HTTP with their signature
 * checks (bench/support/events-sns.ts), and DSNs over SMTP to `npm run inbound` as its own process
 * (bench/support/events-dsn.ts). Each door runs once unreported to warm up (JIT, the SNS
 * certificate cache, connection pools), then measured. `--door sns` or `--door dsn` runs one.
 * A benchmark, not a test.
 */
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { openPostgres } from "@/db/client";
import { startFakeSns, TEST_TOPIC_ARN } from "@/lib/testing/fake-sns";
import { benchDsnEvents } from "./support/events-dsn";
import { benchSnsEvents, benchSnsFloor, type SnsBenchResult } from "./support/events-sns";
import { firstRow } from "./support/seed-messages";
import { BENCH_KEY_USERNAME, build, scratchPostgres, startServer, tempDir } from "./support/server";

const { values: args } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    count: { type: "string", default: "5000" },
    concurrency: { type: "string", default: "32" },
    "pg-url": {
      type: "string",
      default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
    port: { type: "string", default: "3230" },
    door: { type: "string", default: "all" },
    connections: { type: "string", default: "8" },
    // The door as it was: the webhook through Next.js's routing, not the server door (to compare).
    "through-next": { type: "boolean", default: false },
  },
});

function describe(result: SnsBenchResult): string {
  const cpu =
    (result.cpuMsPerEvent === null
      ? "server CPU not readable"
      : `${result.cpuMsPerEvent.toFixed(2)} ms server CPU per event`) +
    (result.dbCpuMsPerEvent === null ? "" : ` + ${result.dbCpuMsPerEvent.toFixed(2)} ms PostgreSQL CPU`) +
    ` + ${result.clientCpuMsPerEvent.toFixed(2)} ms bench client CPU`;
  return (
    `${result.eventsPerSecond.toFixed(0)} events/s (${result.events.toLocaleString("en")} in ${result.seconds.toFixed(2)} s), ${cpu}, ` +
    `p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, non-2xx ${result.non2xx}, errors ${result.errors}, recorded ${result.recorded.toLocaleString("en")}`
  );
}

async function main() {
  if (args.door !== "dsn") await benchSnsDoor();
  if (args.door !== "sns") await benchDsnDoor();
}

async function benchDsnDoor() {
  const result = await benchDsnEvents({
    count: Number(args.count),
    connections: Number(args.connections),
    pgUrl: args["pg-url"],
  });
  if (!result) return;
  const pg =
    result.postgresCpuMsPerDsn === null
      ? "PostgreSQL CPU not readable"
      : `${result.postgresCpuMsPerDsn.toFixed(2)} ms PostgreSQL CPU`;
  console.log(
    `postgres: DSNs over SMTP (${result.connections} connections, listener process): ${result.dsnPerSecond.toFixed(0)} DSNs/s ` +
      `(${result.count.toLocaleString("en")} in ${result.seconds.toFixed(2)} s), per DSN ${result.listenerCpuMsPerDsn.toFixed(2)} ms listener CPU, ${pg}, ` +
      `${result.clientCpuMsPerDsn.toFixed(2)} ms client CPU; recorded ${result.recorded.toLocaleString("en")}`,
  );
}

async function benchSnsDoor() {
  build(args["skip-build"]!);
  const database = await scratchPostgres(args["pg-url"]!);
  if (!database) return;
  const dataDir = tempDir();
  const sns = await startFakeSns();
  try {
    const server = await startServer(
      Number(args.port),
      {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir.dir,
        RUN_WORKER: "false",
        SES_SNS_TOPIC_ARNS: TEST_TOPIC_ARN,
        // The bench's own SNS certificate: a test setting the production server refuses without this flag.
        SNS_TEST_TRUSTED_ORIGIN: sns.origin,
        POSTWERK_ALLOW_INSECURE_TEST_SETTINGS: "true",
      },
      args["through-next"] ? ["--through-next"] : [],
    );
    const handle = await openPostgres(database.url, 2);
    try {
      const rows = (await handle.db.execute(
        sql`select workspace_id from api_keys where id = ${BENCH_KEY_USERNAME}`,
      )) as unknown;
      const workspaceId = firstRow<{ workspace_id: string }>(rows).workspace_id;
      const origin = new URL(server.base).origin;
      const common = { origin, handle, workspaceId, sns, concurrency: Number(args.concurrency), serverPid: server.pid };
      await benchSnsEvents({ ...common, count: 500, label: "warmup" });
      const result = await benchSnsEvents({ ...common, count: Number(args.count), label: "run" });
      console.log(
        `postgres: SNS notifications over HTTP (signature checked, concurrency ${args.concurrency}): ${describe(result)}`,
      );
      const floor = await benchSnsFloor({ ...common, count: Number(args.count) });
      const floorCpu = floor.cpuMs === null ? "" : `, ${floor.cpuMs.toFixed(2)} ms server CPU each`;
      console.log(
        `postgres: the same door refusing at once (unsigned: HTTP server, Next.js routing, the route): ${floor.perSecond.toFixed(0)} requests/s${floorCpu}`,
      );
    } finally {
      await handle.close();
      await server.stop();
    }
  } finally {
    await sns.close();
    await database.drop();
    dataDir.remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
