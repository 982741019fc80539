import "../../scripts/check-node.mjs"; // first: a clear error on an unsupported Node
import "server-only";
import { closeDb, getDbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { getDeliveryProvider } from "@/lib/delivery/registry";
import { env } from "@/lib/env";
import { errorFields, log, setLogLevel } from "@/lib/log";
import { closeSmtpTransport } from "@/lib/delivery/providers/smtp/smtp-provider";
import { getQueue, stopQueue } from "@/lib/queue/queue";
import { startHealthServer, stopHealthServer } from "@/lib/observability/health-server";
import { startWorkers, stopWorkers } from "./worker";

/**
 * `npm run worker`: a standalone worker process. Only with DATABASE_URL: the embedded PGlite data
 * directory has a single owner (docs/architecture.md#rules-that-carry-weight, rule 5), so in embedded mode the workers run inside
 * the server. Any number of these may run at once: pg-boss hands each job to one worker at a time.
 */
async function main(): Promise<void> {
  const config = env();
  setLogLevel(config.LOG_LEVEL);
  if (!config.DATABASE_URL) {
    fail(
      "npm run worker needs DATABASE_URL (a PostgreSQL server). Without it the data lives in an embedded " +
        "database that only the server process may open, and the server runs the workers itself.",
    );
  }
  getDeliveryProvider(); // a misconfigured provider stops here, not on every job
  // Before the migrations: a probe sees a live process that is not ready yet, not a dead one.
  const healthServer = config.WORKER_HEALTH_PORT ? await startHealthServer(config.WORKER_HEALTH_PORT) : null;
  await migrateDatabase(await getDbHandle());
  await getQueue(); // installs and migrates the queue's own schema
  await startWorkers({ concurrency: config.WORKER_CONCURRENCY });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("worker stopping", { signal });
    try {
      // Lets running deliveries finish; an unfinished one is retried by another worker after expiry.
      await stopWorkers();
      if (healthServer) await stopHealthServer(healthServer);
      await closeSmtpTransport();
      await stopQueue();
      await closeDb();
      process.exit(0);
    } catch (error) {
      log.error("worker did not stop cleanly", errorFields(error, { stack: true }));
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

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
