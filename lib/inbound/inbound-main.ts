import "../../scripts/check-node.mjs"; // first: a clear error on an unsupported Node
import "server-only";
import { closeDb, getDbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { env } from "@/lib/env";
import { errorFields, log, setLogLevel } from "@/lib/log";
import { startHealthServer, stopHealthServer } from "@/lib/observability/health-server";
import { getQueue, stopQueue } from "@/lib/queue/queue";
import { startConfiguredInbound } from "./start-inbound";

/**
 * `npm run inbound`: the bounce listener as a process of its own, scaled apart from the server and the
 * workers (docs/self-hosting.md#bounces-and-complaints). Only with DATABASE_URL, like `npm run worker`:
 * the embedded database has one owner, the server, which then runs the listener itself. Any number
 * may run behind the bounce domain's MX records: each report is recorded idempotently.
 */
async function main(): Promise<void> {
  const config = env();
  setLogLevel(config.LOG_LEVEL);
  if (!config.DATABASE_URL) {
    fail(
      "npm run inbound needs DATABASE_URL (a PostgreSQL server). Without it the data lives in an embedded database " +
        "that only the server process may open: set SMTP_INBOUND_PORT for the server and it runs the listener itself.",
    );
  }
  if (config.SMTP_INBOUND_PORT === undefined || !config.BOUNCE_DOMAIN) {
    fail("npm run inbound needs SMTP_INBOUND_PORT (e.g. 25) and BOUNCE_DOMAIN (e.g. bounces.example.com).");
  }
  const healthServer = config.INBOUND_HEALTH_PORT ? await startHealthServer(config.INBOUND_HEALTH_PORT, "inbound") : null;
  await migrateDatabase(await getDbHandle());
  // Nothing here enqueues, but /health/ready checks the queue as it does for every process.
  await getQueue();
  const inbound = await startConfiguredInbound(config);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("inbound listener stopping", { signal });
    try {
      // Stops accepting; reports being received are recorded (or answered 451) before connections close.
      await inbound?.close();
      if (healthServer) await stopHealthServer(healthServer);
      await stopQueue();
      await closeDb();
      process.exit(0);
    } catch (error) {
      log.error("inbound listener did not stop cleanly", errorFields(error, { stack: true }));
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
