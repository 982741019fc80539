import "server-only";
import { closeDb, getDbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { env, type Env } from "@/lib/foundation/env";
import { errorFields, log, setLogLevel } from "@/lib/foundation/log";
import { startHealthServer, stopHealthServer } from "@/lib/entry/observability/health-server";
import { getQueue, stopQueue } from "@/lib/records/queue/queue";

export interface StandaloneProcess {
  /** The command, e.g. "npm run worker": every message names it. */
  command: string;
  /** The noun of its log lines, e.g. "worker", "inbound listener". */
  noun: string;
  /** Why DATABASE_URL is needed, after "<command> needs DATABASE_URL (a PostgreSQL server). ". */
  embeddedHint: string;
  /** A settings problem that stops the process before anything starts, or null. */
  misconfigured?: (config: Env) => string | null;
  /** The port of /health/live, /health/ready and /metrics, when set (docs/self-hosting.md#health-checks). */
  healthPort?: (config: Env) => number | undefined;
  /** Starts the process's work; resolves to what stops it gracefully (before the queue and database close). */
  start: (config: Env) => Promise<() => Promise<void>>;
}

/**
 * The life of a process that runs beside the server with DATABASE_URL (`npm run worker`, `inbound`,
 * `smtp`): refuse the embedded database (its data directory has one owner, the server, which then runs
 * this work itself), check the settings, answer health probes before the migrations (a probe sees a
 * live process that is not ready yet, not a dead one), migrate, open the queue, start; on SIGINT or
 * SIGTERM stop the work, then the health listener, the queue and the database, and exit 0 (1 if
 * something did not stop cleanly).
 */
export function runStandalone(spec: StandaloneProcess): void {
  main(spec).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
}

async function main(spec: StandaloneProcess): Promise<void> {
  const config = env();
  setLogLevel(config.LOG_LEVEL);
  if (!config.DATABASE_URL) fail(`${spec.command} needs DATABASE_URL (a PostgreSQL server). ${spec.embeddedHint}`);
  const problem = spec.misconfigured?.(config);
  if (problem) fail(problem);
  const healthPort = spec.healthPort?.(config);
  const healthServer = healthPort ? await startHealthServer(healthPort, spec.noun) : null;
  await migrateDatabase(await getDbHandle());
  await getQueue(); // installs the queue's own schema; /health/ready checks it in every process
  const stop = await spec.start(config);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${spec.noun} stopping`, { signal });
    try {
      await stop();
      if (healthServer) await stopHealthServer(healthServer);
      await stopQueue();
      await closeDb();
      process.exit(0);
    } catch (error) {
      log.error(`${spec.noun} did not stop cleanly`, errorFields(error, { stack: true }));
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
