import "server-only";
import { closeDb, getDbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { env, type Env } from "@/lib/foundation/env";
import { errorFields, log, setLogLevel } from "@/lib/foundation/log";
import { startHealthServer, stopHealthServer } from "@/lib/entry/observability/health-server";
import { getQueue, stopQueue } from "@/lib/records/queue/queue";
import { startTracing, stopTracing } from "@/lib/entry/observability/tracing-sdk";

export interface StandaloneProcess {
  command: string;
  noun: string;
  /** Why DATABASE_URL is needed, after "<command> needs DATABASE_URL (a PostgreSQL server). ". */
  embeddedHint: string;
  /** A settings problem that stops the process before anything starts, or null. */
  misconfigured?: (config: Env) => string | null;
  healthPort?: (config: Env) => number | undefined;
  /** The service name's suffix in traces (postwerk-<this>) when OTEL_SERVICE_NAME is unset; default: the noun. */
  tracingName?: string;
  /** Starts the process's work; resolves to what stops it gracefully (before the queue and database close). */
  start: (config: Env) => Promise<() => Promise<void>>;
}

/**
 * A process beside the server with DATABASE_URL: refuse the embedded database (the server owns it), answer health
 * probes before migrating (live, not ready), then start; on SIGINT/SIGTERM stop it all and exit 0 (1 if unclean).
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
  await startTracing(spec.tracingName ?? spec.noun);
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
      await stopTracing();
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
