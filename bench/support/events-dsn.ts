/**
 * DSNs over SMTP: the inbound listener's door of `npm run bench:events` (alone:
 * `npm run bench:events -- --door dsn [--count 3000] [--connections 8]`).
 *
 * On a scratch PostgreSQL database: seeds N sent messages (one workspace, one recipient each), starts
 * `npm run inbound` as its own process, and delivers one Postfix-shaped hard-bounce DSN per message to
 * its return path with a pooled nodemailer client (several connections), after a warm-up. Every DSN
 * is a hard bounce: event, timestamps, suppression and the automatic pause check (with the pause
 * threshold at 100% so the check runs in full for every report, the worst case). Reports DSNs/s and
 * the CPU per DSN of the listener, of PostgreSQL and of the client, read from /proc.
 * A benchmark, not a test: figures vary with the machine.
 */
import fs from "node:fs";
import { sql } from "drizzle-orm";
import { closeDb, installDbHandle, openPostgres, type DbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { bounceAddress } from "@/lib/foundation/crypto/bounce-token";
import { env } from "@/lib/foundation/env";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { fixtureReport, inboundClient, startInboundProcess, TEST_BOUNCE_DOMAIN } from "@/lib/entry/inbound/testing";
import { scratchPostgres } from "./server";

export interface DsnBenchOptions {
  /** DSNs measured (the warm-up adds its own). */
  count?: number;
  /** SMTP connections of the client's pool. */
  connections?: number;
  /** The PostgreSQL server; a scratch database is created on it and dropped. */
  pgUrl?: string;
}

export interface DsnBenchResult {
  count: number;
  connections: number;
  seconds: number;
  dsnPerSecond: number;
  /** CPU of the `npm run inbound` process tree, per DSN. */
  listenerCpuMsPerDsn: number;
  /** CPU of the scratch database's PostgreSQL backends, per DSN (null when PostgreSQL is not on this machine). */
  postgresCpuMsPerDsn: number | null;
  /** CPU of this process (nodemailer building and sending), per DSN. */
  clientCpuMsPerDsn: number;
  recorded: number;
}

const WARM_UP = 500;

export async function benchDsnEvents(opts: DsnBenchOptions = {}): Promise<DsnBenchResult | null> {
  const count = opts.count ?? 3000;
  const connections = opts.connections ?? 8;
  const scratch = await scratchPostgres(
    opts.pgUrl ?? process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  );
  if (!scratch) return null;
  const handle = await openPostgres(scratch.url, 4);
  installDbHandle(handle);
  await migrateDatabase(handle);
  const inbound = startInboundProcess({
    DATABASE_URL: scratch.url,
    AUTH_SECRET: env().AUTH_SECRET,
    AUTO_PAUSE_BOUNCE_RATE: "1",
  });
  inbound.port.catch(() => {});
  try {
    const { workspace } = await createTestWorkspace({ name: "Bench" });
    const ids = await seedSentMessages(handle, workspace.id, WARM_UP + count);
    const reports = ids.map((id, index) => dsnFor(id, index));
    const port = await listenerPort(inbound);
    await deliverAll(port, reports.slice(0, WARM_UP), connections);

    const listenerPid = inbound.child.pid!;
    // The backends of the scratch database (the listener's pool is open after the warm-up): other
    // databases on the same server are other people's load.
    const backends = await databaseBackends(handle);
    const before = {
      listener: treeCpuMs(listenerPid),
      postgres: cpuMsOf(backends),
      client: process.cpuUsage(),
      at: performance.now(),
    };
    await deliverAll(port, reports.slice(WARM_UP), connections);
    const ms = performance.now() - before.at;
    const client = process.cpuUsage(before.client);
    const postgresAfter = cpuMsOf(backends);
    const [{ recorded }] = (await handle.db.execute(
      sql`select count(*)::int as recorded from email_message_logs where code = 'EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT'`,
    )) as unknown as Array<{ recorded: number }>;
    return {
      count,
      connections,
      seconds: ms / 1000,
      dsnPerSecond: Math.round(count / (ms / 1000)),
      listenerCpuMsPerDsn: round((treeCpuMs(listenerPid) - before.listener) / count),
      postgresCpuMsPerDsn:
        before.postgres === null || postgresAfter === null ? null : round((postgresAfter - before.postgres) / count),
      clientCpuMsPerDsn: round((client.user + client.system) / 1000 / count),
      recorded: recorded - WARM_UP,
    };
  } finally {
    await inbound.stop();
    await closeDb();
    await scratch.drop();
  }
}

/** `count` SUCCEEDED messages to distinct recipients, in one statement; their ids, oldest first. */
async function seedSentMessages(handle: DbHandle, workspaceId: string, count: number): Promise<string[]> {
  const rows = (await handle.db.execute(sql`
    insert into email_messages (id, workspace_id, source, sandbox, status, "to", to_addresses, "from", subject, body_html, body_text, processed_at, sent_at, created_at, updated_at)
    select 'em_D' || lpad(g::text, 15, '0'), ${workspaceId}, 'API', false, 'SUCCEEDED',
           jsonb_build_array('Reader <reader' || g || '@example.org>'), array['reader' || g || '@example.org'],
           'bench@example.com', 'Bench ' || g, '<p>bench</p>', 'bench', t.at, t.at, t.at, t.at
    from generate_series(1, ${count}::int) g, lateral (select now() - interval '1 hour' + make_interval(secs => g::double precision / 1000) as at) t
    returning id`)) as unknown as Array<{ id: string }>;
  return rows.map((row) => row.id).sort();
}

function dsnFor(id: string, index: number): { rcpt: string; raw: string } {
  const rcpt = bounceAddress(id, TEST_BOUNCE_DOMAIN);
  const raw = fixtureReport("postfix-hard.eml", {
    to: rcpt,
    returnPath: rcpt,
    recipient: `reader${Number(id.slice(4))}@example.org`,
    messageId: `<${id}@example.com>`,
  })
    // A report id of its own, as every real DSN has.
    .replace("<20261125010000.7E9B221E0A4@mail.example.net>", `<bench-${index}.${id}@mail.example.net>`);
  return { rcpt, raw };
}

/** Sends every report through one pooled client; resolves when the last 250 arrived. */
async function deliverAll(
  port: number,
  reports: Array<{ rcpt: string; raw: string }>,
  connections: number,
): Promise<void> {
  const client = inboundClient(port, { pool: true, maxConnections: connections });
  try {
    await Promise.all(
      reports.map((report) => client.sendMail({ envelope: { from: "", to: [report.rcpt] }, raw: report.raw })),
    );
  } finally {
    client.close();
  }
}

async function listenerPort(inbound: ReturnType<typeof startInboundProcess>): Promise<number> {
  return Promise.race([
    inbound.port,
    new Promise<number>((_, reject) =>
      setTimeout(() => reject(new Error(`npm run inbound did not start: ${inbound.stderr()}`)), 60_000),
    ),
  ]);
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime of a process and all its descendants (tsx runs the listener in a child node). */
function treeCpuMs(rootPid: number): number {
  const stats = readProcStats();
  const pids = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const stat of stats) if (pids.has(stat.ppid) && !pids.has(stat.pid)) grew = pids.add(stat.pid).size > 0;
  }
  return stats.filter((stat) => pids.has(stat.pid)).reduce((sum, stat) => sum + stat.cpuMs, 0);
}

/** The server pids of the connections to the scratch database. */
async function databaseBackends(handle: DbHandle): Promise<number[]> {
  const rows = (await handle.db.execute(
    sql`select pid from pg_stat_activity where datname = current_database()`,
  )) as unknown as Array<{ pid: number }>;
  return rows.map((row) => row.pid);
}

/** Their CPU so far, or null when they are not processes of this machine. */
function cpuMsOf(pids: number[]): number | null {
  const wanted = new Set(pids);
  const found = readProcStats().filter((stat) => wanted.has(stat.pid) && stat.comm === "postgres");
  return found.length ? found.reduce((sum, stat) => sum + stat.cpuMs, 0) : null;
}

function readProcStats(): Array<{ pid: number; ppid: number; comm: string; cpuMs: number }> {
  const stats = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = text.lastIndexOf(")");
      const fields = text.slice(close + 2).split(" ");
      stats.push({
        pid: Number(entry),
        comm: text.slice(text.indexOf("(") + 1, close),
        ppid: Number(fields[1]),
        cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
      });
    } catch {
      // gone meanwhile
    }
  }
  return stats;
}

const round = (value: number) => Math.round(value * 100) / 100;
