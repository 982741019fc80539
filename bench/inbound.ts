/**
 * npm run bench:inbound [-- --count 3000 --connections 48 --warm-up 300 --profile --compression pglz]
 *
 * Inbound mails per second over SMTP, on PostgreSQL (a scratch database, created and dropped): the real listener
 * (lib/entry/inbound/start-inbound.ts) runs in this process; N distinct ~20 KB replies (bench/support/inbound-mail.ts)
 * come from a pooled nodemailer client in a child process (bench/support/inbound-senders.ts, which also answers the
 * customers' DNS), so this process's CPU is the listener's alone. 48 connections by default: an MX is sent to by many
 * MTAs at once, each with several connections (Postfix opens up to 20 per destination); the listener takes 100 by
 * default (SMTP_INBOUND_MAX_CONNECTIONS), raised here to --connections when more are asked for. Every mail is parsed, checked (SPF, DKIM, DMARC
 * pass), stored with its raw bytes and thread, routed, and its email.received webhook event enqueued before its 250.
 * Prints mails/s, the listener's and PostgreSQL's CPU per mail; with --profile where the listener's time goes (a
 * separate pass of up to 1,500 mails, so the profiler's cost stays out of the figures), with --log-statements the
 * statements per mail PostgreSQL ran (its log, bench/support/pg-log.ts), with --compression pglz or lz4 the stored mail's
 * large columns set to it (migration 0023 chooses lz4 where the server has it), to compare.
 * Target: ≥ 300 mails/s of 20 KB on the 2-core development machine. A benchmark, not a test.
 */
import { fork, type ChildProcess } from "node:child_process";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { closeDb, getDb, getDbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { startConfiguredInbound } from "@/lib/entry/inbound/start-inbound";
import { env, resetEnvForTests } from "@/lib/foundation/env";
import { setLogLevel } from "@/lib/foundation/log";
import { stopQueue } from "@/lib/records/queue/queue";
import { printSummary, startCpuProfile } from "./support/cpu-profile";
import { countStored, setupInboundBench } from "./support/inbound-setup";
import { logSize, printStatements, statementsBetween } from "./support/pg-log";
import { backendsOf, cpuOf, loadAverage } from "./support/proc-cpu";
import { scratchPostgres, tempDir } from "./support/server";

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "3000" },
    connections: { type: "string", default: "48" },
    "warm-up": { type: "string", default: "300" },
    profile: { type: "boolean", default: false },
    "log-statements": { type: "boolean", default: false },
    compression: { type: "string" },
    "pg-url": {
      type: "string",
      default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
  },
});
const COUNT = Number(args.count);
const CONNECTIONS = Number(args.connections);
const WARM_UP = Number(args["warm-up"]);
const PROFILE_FILE = "/tmp/postwerk-prof/inbound-listener.cpuprofile";

/** The senders' process and its one-reply-per-command IPC. */
function startSenders(): { child: ChildProcess; ask<T>(command?: object): Promise<T> } {
  const child = fork("bench/support/inbound-senders.ts", [], {
    execArgv: ["--conditions=react-server", "--import", "tsx"],
    env: { ...process.env, LOG_LEVEL: "warn" },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return {
    child,
    ask: <T>(command?: object) =>
      new Promise<T>((resolve, reject) => {
        const exited = (code: number | null) => reject(new Error(`the senders exited with ${code}`));
        child.once("exit", exited);
        child.once("message", (reply: T & { error?: string }) => {
          child.off("exit", exited);
          if (reply.error) reject(new Error(reply.error));
          else resolve(reply);
        });
        if (command) child.send(command);
      }),
  };
}

type Senders = ReturnType<typeof startSenders>;
type Database = NonNullable<Awaited<ReturnType<typeof scratchPostgres>>>;

/** The listener's settings (env() reads them): the senders' DNS, no spamd, the per-IP limit lifted. */
async function configure(database: Database, dnsPort: number, dataDir: string): Promise<void> {
  if (args["log-statements"]) {
    const admin = postgres(args["pg-url"]!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`alter database ${database.name} set log_min_duration_statement = 0`);
    await admin.end();
  }
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    DNS_SERVERS: `127.0.0.1:${dnsPort}`,
    DOMAIN_VERIFICATION: "off",
    SMTP_INBOUND_HOST: "127.0.0.1",
    SMTP_INBOUND_PORT: "0",
    // One sending address, thousands of mails a minute: the per-IP limit is the bench's to lift.
    INBOUND_RATE_PER_IP_PER_MINUTE: "1000000",
    SMTP_INBOUND_MAX_CONNECTIONS: String(Math.max(100, CONNECTIONS)),
    LOG_LEVEL: "warn",
  });
  delete process.env.SPAMD_URL;
  delete process.env.BOUNCE_DOMAIN;
  resetEnvForTests();
  setLogLevel("warn");
}

/** The stored mail's large columns (migration 0023) set to another compression, for an A/B. */
async function setCompression(method: string): Promise<void> {
  if (!["pglz", "lz4"].includes(method)) throw new Error("--compression is pglz or lz4");
  const db = await getDb();
  await db.execute(
    `alter table inbound_messages alter column text_body set compression ${method}, ` +
      `alter column html_body set compression ${method}, alter column headers set compression ${method}`,
  );
  await db.execute(`alter table inbound_message_raw alter column raw set compression ${method}`);
}

/** Mails `from`..`from + count - 1` built by the senders, then sent while the clock and the CPU counters run. */
async function measure(
  senders: Senders,
  database: Database,
  port: number,
  from: number,
  count: number,
  profiling = false,
) {
  const built = await senders.ask<{ built: number; bytes: number }>({ build: { from, count } });
  const started = performance.now();
  const cpu = process.cpuUsage();
  const pg = cpuOf(backendsOf(database.name));
  const log = args["log-statements"] ? logSize() : 0;
  const profile = profiling ? await startCpuProfile() : null;
  const reply = await senders.ask<{ sent: number; refused: number; cpuMs: number }>({
    send: { port, connections: CONNECTIONS },
  });
  const summary = await profile?.stop(PROFILE_FILE);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const postgresMs = ((cpuOf(backendsOf(database.name)) - pg) * 1000) / count;
  if (args["log-statements"] && from > 0 && !profiling) {
    await new Promise((resolve) => setTimeout(resolve, 500)); // the log is written behind
    printStatements(`statements per mail (${count} mails)`, statementsBetween(log, logSize(), database.name), count);
  }
  return {
    ...reply,
    seconds,
    rate: reply.sent / seconds,
    bytes: built.bytes / built.built,
    listenerMs: (used.user + used.system) / 1000 / count,
    listenerSystemMs: used.system / 1000 / count,
    sendersMs: reply.cpuMs / count,
    postgresMs,
    summary,
  };
}

function report(run: Awaited<ReturnType<typeof measure>>, stored: Awaited<ReturnType<typeof countStored>>): void {
  const core = (ms: number) => `${((ms * run.rate) / 10).toFixed(0)} % of a core`;
  console.log(
    `${run.sent} mails of ${(run.bytes / 1024).toFixed(1)} KB in ${run.seconds.toFixed(2)} s: ${run.rate.toFixed(0)} mails/s (target ≥ 300)` +
      (run.refused ? `; ${run.refused} REFUSED` : ""),
  );
  console.log(
    `CPU per mail: listener ${run.listenerMs.toFixed(2)} ms (${run.listenerSystemMs.toFixed(2)} of it in the kernel; ${core(run.listenerMs)}), ` +
      `PostgreSQL ${run.postgresMs.toFixed(2)} ms (${core(run.postgresMs)}), senders ${run.sendersMs.toFixed(2)} ms; ` +
      `two cores given to the listener and PostgreSQL alone would allow ${(2000 / (run.listenerMs + run.postgresMs)).toFixed(0)} mails/s`,
  );
  console.log(
    `stored ${stored.stored} (warm-up included), email.received enqueued ${stored.received}, replies linked ${stored.replied}, ` +
      `SPF+DKIM+DMARC pass ${stored.authPassed}; load average ${loadAverage()}`,
  );
  console.log(
    `on disk: ${(stored.tableBytes / stored.stored / 1024).toFixed(1)} KB a mail (inbound_messages, inbound_message_raw and the dedupe keys ` +
      `with TOAST and indexes; raw bytes compressed with ${stored.compression})`,
  );
}

async function main(): Promise<void> {
  const senders = startSenders();
  const { dnsPort } = await senders.ask<{ dnsPort: number }>();
  const database = await scratchPostgres(args["pg-url"]!);
  if (!database) throw new Error("bench:inbound needs PostgreSQL (--pg-url or BENCH_DATABASE_URL)");
  const dataDir = tempDir();
  let listener: Awaited<ReturnType<typeof startConfiguredInbound>> = null;
  try {
    await configure(database, dnsPort, dataDir.dir);
    await migrateDatabase(await getDbHandle());
    if (args.compression) await setCompression(args.compression);
    const profiled = args.profile ? Math.min(COUNT, 1500) : 0;
    const { workspaceId } = await setupInboundBench(WARM_UP + COUNT + profiled);
    listener = await startConfiguredInbound(env());
    if (!listener) throw new Error("the inbound listener did not start");
    console.log(`load average ${loadAverage()}; ${CONNECTIONS} connections; warm-up ${WARM_UP} mails`);
    await measure(senders, database, listener.port, 0, WARM_UP);
    const run = await measure(senders, database, listener.port, WARM_UP, COUNT);
    // Profiled apart: the profiler's own cost stays out of the figures above.
    const profile = profiled ? await measure(senders, database, listener.port, WARM_UP + COUNT, profiled, true) : null;
    const stored = await countStored(workspaceId);
    report(run, stored);
    if (profile?.summary) {
      console.log(
        `listener profile of ${profiled} more mails (${profile.rate.toFixed(0)} mails/s under the profiler; written to ${PROFILE_FILE}):`,
      );
      printSummary(profile.summary);
    }
    if (stored.stored !== WARM_UP + COUNT + profiled || stored.received !== stored.stored) process.exitCode = 1;
  } finally {
    await listener?.close();
    await stopQueue();
    await closeDb();
    await database.drop();
    dataDir.remove();
    senders.child.disconnect();
  }
}

main()
  .then(() => process.exit())
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
