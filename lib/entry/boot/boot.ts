import "server-only";
import { closeDb, getDbHandle } from "@/db/client";
import { flushActivityLog } from "@/lib/records/activity/record-activity";
import { startEmbeddedAutovacuum } from "@/lib/entry/worker/embedded-autovacuum";
import { migrateDatabase } from "@/db/migrate";
import { env, type Env } from "@/lib/foundation/env";
import { getQueue, stopQueue } from "@/lib/records/queue/queue";
import { startWorkers, stopWorkers } from "@/lib/entry/worker/worker";
import { errorFields, log } from "@/lib/foundation/log";
import { describeDemo, seedDemo, type SeedDemoResult } from "@/lib/flows/setup/seed-demo";
import { ensureSystemWorkspace } from "@/lib/domain/workspaces/system-workspace";
import { closeSmtpTransport } from "@/lib/delivery/providers/smtp/smtp-provider";
import type { InboundServer } from "@/lib/entry/inbound/inbound-server";
import { startConfiguredInbound } from "@/lib/entry/inbound/start-inbound";
import {
  startSubmissionServer,
  type SubmissionListener,
  type SubmissionSettings,
} from "@/lib/entry/submission/start-submission-server";
import { processSingleton } from "@/lib/foundation/process-singleton";
import { VERSION } from "@/lib/foundation/version";
import { startTracing, stopTracing } from "@/lib/entry/observability/tracing-sdk";
import { acquireDataDirLock, type DataDirLock } from "./data-dir-lock";

type BootSettings = Pick<
  Env,
  | "DATABASE_URL"
  | "DATA_DIR"
  | "APP_URL"
  | "SEED_DEMO"
  | "SEED_API_KEY"
  | "RUN_WORKER"
  | "WORKER_CONCURRENCY"
  | "DELIVERY_PROVIDER"
> &
  SubmissionSettings;

export interface BootOptions {
  settings?: Partial<BootSettings>;
  print?: (line: string) => void;
  /** On by default; tests turn it off and call shutdown(). */
  handleSignals?: boolean;
}

export interface BootedServer {
  embedded: boolean;
  seed: SeedDemoResult | null;
  workersStarted: boolean;
  inboundPort: number | null;
  submission: SubmissionListener | null;
  /** Stops the listeners, workers and queue, closes the database, removes the DATA_DIR lock. Idempotent. */
  shutdown(): Promise<void>;
}

const globalForBoot = processSingleton("boot", () => ({}) as { __boot?: Promise<BootedServer> });

/**
 * Called once from instrumentation.ts, never at import or build: own the data directory, migrate, start the queue,
 * seed an empty database, create the System mail workspace, run the workers.
 */
export function bootServer(options: BootOptions = {}): Promise<BootedServer> {
  if (!globalForBoot.__boot) {
    globalForBoot.__boot = boot(options).catch((error) => {
      globalForBoot.__boot = undefined;
      throw error;
    });
  }
  return globalForBoot.__boot;
}

/** instrumentation.ts entry: boot, or explain why not and exit (a server without its database is useless). */
export async function startServerProcess(): Promise<void> {
  try {
    await startTracing("server");
    await bootServer();
  } catch (error) {
    process.stderr.write(`\nThe server cannot start: ${error instanceof Error ? error.message : String(error)}\n\n`);
    process.exit(1);
  }
}

async function boot(options: BootOptions): Promise<BootedServer> {
  const settings: BootSettings = { ...env(), ...options.settings };
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const embedded = !settings.DATABASE_URL;
  const lock = embedded ? acquireDataDirLock(settings.DATA_DIR, "server") : null;
  const releaseOnExit = () => lock?.release();
  process.once("exit", releaseOnExit);
  let inbound: InboundServer | null = null;
  let submission: SubmissionListener | null = null;
  let autovacuum: { stop(): Promise<void> } | null = null;
  try {
    const handle = await getDbHandle();
    await migrateDatabase(handle);
    await getQueue();
    const seed = settings.SEED_DEMO ? await seedDemo({ apiKey: settings.SEED_API_KEY, onlyIfEmpty: true }) : null;
    const banner = seed
      ? describeDemo(seed, { appUrl: settings.APP_URL, deliveryProvider: settings.DELIVERY_PROVIDER })
      : [];
    if (banner.length > 0) [`Postwerk ${VERSION}`, ...banner].forEach(print);
    // After the demo seed, whose "only into an empty database" check must not see this workspace.
    await ensureSystemWorkspace();
    autovacuum = startEmbeddedAutovacuum(handle);
    // With PGlite no other process can open the database, so the worker must run here.
    if (embedded && !settings.RUN_WORKER) log.warn("RUN_WORKER=false is ignored with the embedded database");
    const workersStarted = embedded || settings.RUN_WORKER;
    if (workersStarted) await startWorkers({ concurrency: settings.WORKER_CONCURRENCY });
    inbound = await startConfiguredInbound(env());
    submission = await startSubmissionServer(settings);
    log.info("server ready", {
      version: VERSION,
      database: handle.driver,
      workers: workersStarted,
      inboundPort: inbound?.port ?? null,
      url: settings.APP_URL,
    });
    const running = { inbound, submission, autovacuum };
    const server: BootedServer = {
      embedded,
      seed,
      workersStarted,
      inboundPort: inbound?.port ?? null,
      submission,
      shutdown: once(() => shutdown(lock, releaseOnExit, running)),
    };
    if (options.handleSignals ?? true) handleSignals(server.shutdown);
    return server;
  } catch (error) {
    await inbound?.close().catch(() => {});
    await submission?.close().catch(() => {});
    await autovacuum?.stop();
    await closeDb().catch(() => {});
    lock?.release();
    process.off("exit", releaseOnExit);
    throw error;
  }
}

async function shutdown(
  lock: DataDirLock | null,
  releaseOnExit: () => void,
  running: {
    inbound: InboundServer | null;
    submission: SubmissionListener | null;
    autovacuum: { stop(): Promise<void> } | null;
  },
): Promise<void> {
  try {
    // First: no new mail while the rest stops, and a report still being received is recorded (or
    // answered 451) while the database is open.
    await running.submission?.close();
    await running.inbound?.close();
    await stopWorkers();
    await closeSmtpTransport();
    await stopQueue();
  } finally {
    await running.autovacuum?.stop();
    await flushActivityLog();
    await stopTracing();
    await closeDb();
    lock?.release();
    process.off("exit", releaseOnExit);
    globalForBoot.__boot = undefined;
  }
}

const SHUTDOWN_TIMEOUT_MS = 20_000;

// Next.js's own signal handler exits once its HTTP server closes, which would cut PGlite off mid-write: its exit is
// held until our shutdown is done.
function handleSignals(shutdownOnce: () => Promise<void>): void {
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    log.info("shutting down", { signal });
    const code = signal === "SIGINT" ? 130 : 143;
    const exit = process.exit.bind(process);
    const done = shutdownOnce().catch((error) => log.error("shutdown failed", errorFields(error, { stack: true })));
    process.exit = ((exitCode?: number) => void done.finally(() => exit(exitCode ?? code))) as typeof process.exit;
    setTimeout(() => exit(code), SHUTDOWN_TIMEOUT_MS).unref();
    void done.finally(() => exit(code));
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}

function once(work: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= work());
}
