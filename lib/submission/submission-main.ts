import "../../scripts/check-node.mjs"; // first: a clear error on an unsupported Node
import "server-only";
import { closeDb, getDbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { flushActivityLog } from "@/lib/activity/record-activity";
import { env } from "@/lib/env";
import { errorFields, log, setLogLevel } from "@/lib/log";
import { getQueue, stopQueue } from "@/lib/queue/queue";
import { startSubmissionServer } from "./start-submission-server";

/**
 * `npm run smtp`: the SMTP submission listener as its own process (docs/self-hosting.md#smtp-submission).
 * Only with DATABASE_URL, like `npm run worker`: the embedded database has one owner, the server,
 * which then runs the listener itself. Any number may run behind a TCP load balancer: each message
 * is committed before its 250, so nothing lives in a listener's memory.
 */
async function main(): Promise<void> {
  const config = env();
  setLogLevel(config.LOG_LEVEL);
  if (!config.DATABASE_URL) {
    fail("npm run smtp needs DATABASE_URL (a PostgreSQL server). With the embedded database the server runs the SMTP listener itself.");
  }
  if (config.SMTP_SUBMISSION_PORT === undefined && config.SMTP_SUBMISSION_TLS_PORT === undefined) {
    fail("npm run smtp needs SMTP_SUBMISSION_PORT (587, STARTTLS) or SMTP_SUBMISSION_TLS_PORT (465, implicit TLS).");
  }
  await migrateDatabase(await getDbHandle());
  await getQueue(); // accepted messages enqueue their delivery job in the same transaction
  const listener = (await startSubmissionServer())!;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("smtp submission stopping", { signal });
    try {
      await listener.close();
      await flushActivityLog();
      await stopQueue();
      await closeDb();
      process.exit(0);
    } catch (error) {
      log.error("smtp submission did not stop cleanly", errorFields(error, { stack: true }));
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
