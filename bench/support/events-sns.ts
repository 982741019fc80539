/**
 * The SNS door of `npm run bench:events`: SES events as SNS posts them, over real HTTP to a running
 * server, each one signature-checked (SignatureVersion 2 against the bench's own certificate, trusted
 * by the server through SNS_TEST_TRUSTED_ORIGIN) and recorded through recordProviderEvent.
 */
import fs from "node:fs";
import { sql } from "drizzle-orm";
import type { DbHandle } from "@/db/client";
import { sesEvent, type FakeSns } from "@/lib/testing/fake-sns";
import { percentile } from "./server";
import { firstRow } from "./seed-messages";

export interface SnsBenchOptions {
  /** The running server, e.g. http://127.0.0.1:3230. */
  origin: string;
  /** The server's database, to seed the sent messages and count what was recorded. */
  handle: DbHandle;
  workspaceId: string;
  /** Signs the notifications; its origin must be the server's SNS_TEST_TRUSTED_ORIGIN. */
  sns: FakeSns;
  count: number;
  /** Requests in flight at once (SNS itself delivers to one endpoint with many connections). */
  concurrency: number;
  /** The server's process id: its CPU time is read from /proc/<pid>/stat before and after. */
  serverPid?: number;
  /** Distinguishes the rows of several runs against one database. */
  label: string;
}

export interface SnsBenchResult {
  events: number;
  seconds: number;
  eventsPerSecond: number;
  /** Server CPU (user + system) per event; null when /proc cannot be read (not Linux, not in-process). */
  cpuMsPerEvent: number | null;
  /** CPU of the database's backends serving the bench's database per event (a local PostgreSQL), or null. */
  dbCpuMsPerEvent: number | null;
  /** The bench's own CPU per event (signed bodies prepared beforehand: this is fetch's share of the cores). */
  clientCpuMsPerEvent: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  /** Requests that got no answer (the connection closed). */
  errors: number;
  /** Timeline events the database holds for the seeded messages afterwards: should equal `events`. */
  recorded: number;
}

/**
 * Seeds `count` sent messages (set-based) with SES-like reference ids, signs one notification per
 * message (nine in ten a Delivery, one in ten a Permanent bounce: suppression and the automatic pause
 * check), then posts them all with `concurrency` requests in flight and times only the posting.
 */
export async function benchSnsEvents(opts: SnsBenchOptions): Promise<SnsBenchResult> {
  const prefix = `ses-bench-${opts.label}-`;
  await seedSentMessages(opts.handle, opts.workspaceId, prefix, opts.count);
  const now = new Date();
  const bodies = Array.from({ length: opts.count }, (_, index) =>
    JSON.stringify(opts.sns.notification(eventFor(`${prefix}${index}`, index, now), { version: "2" })),
  );
  const cpuBefore = serverCpuMs(opts.serverPid);
  const dbBefore = await backendCpuMs(opts.handle);
  const clientBefore = process.cpuUsage();
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        const sent = performance.now();
        try {
          const response = await fetch(`${opts.origin}/api/provider-events/ses`, {
            method: "POST",
            headers: { "content-type": "text/plain; charset=UTF-8", "x-amz-sns-message-type": "Notification" },
            body,
          });
          await response.arrayBuffer();
          if (response.status >= 300) non2xx++;
        } catch {
          errors++; // a connection closed without an answer: counted, as SNS would retry it
        }
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = serverCpuMs(opts.serverPid);
  const client = process.cpuUsage(clientBefore);
  const dbAfter = await backendCpuMs(opts.handle);
  latencies.sort((a, b) => a - b);
  return {
    events: opts.count,
    seconds,
    eventsPerSecond: opts.count / seconds,
    cpuMsPerEvent: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / opts.count,
    dbCpuMsPerEvent: cpuDelta(dbBefore, dbAfter) === null ? null : cpuDelta(dbBefore, dbAfter)! / opts.count,
    clientCpuMsPerEvent: (client.user + client.system) / 1000 / opts.count,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    non2xx,
    errors,
    recorded: await countRecorded(opts.handle, prefix),
  };
}

function eventFor(sesMessageId: string, index: number, at: Date): string {
  if (index % 10 === 9) {
    const bounce = {
      bounceType: "Permanent",
      bounceSubType: "General",
      timestamp: at.toISOString(),
      bouncedRecipients: [
        { emailAddress: `user${index}@example.org`, status: "5.1.1", diagnosticCode: "smtp; 550 5.1.1 user unknown" },
      ],
    };
    return sesEvent("Bounce", sesMessageId, { bounce }, at);
  }
  const delivery = {
    timestamp: at.toISOString(),
    processingTimeMillis: 812,
    recipients: [`user${index}@example.org`],
    smtpResponse: "250 2.0.0 OK",
    reportingMTA: "a8-1.smtp-out.amazonses.com",
    remoteMtaIp: "203.0.113.9",
  };
  return sesEvent("Delivery", sesMessageId, { delivery }, at);
}

async function seedSentMessages(handle: DbHandle, workspaceId: string, prefix: string, count: number): Promise<void> {
  const idPrefix = `em_E${prefix.length % 10}${Date.now().toString(36).slice(-5)}`;
  await handle.db.execute(sql`
    insert into email_messages (id, workspace_id, source, sandbox, status, reference_id, "to", to_addresses, "from", subject, body_html, body_text, processed_at, sent_at, created_at, updated_at)
    select ${idPrefix} || lpad(g::text, 9, '0'), ${workspaceId}, 'API', false, 'SUCCEEDED', ${prefix} || g,
           jsonb_build_array('user' || g || '@example.org'), array['user' || g || '@example.org'],
           'bench@example.com', 'Bench ' || g, '<p>bench</p>', 'bench', now(), now(), now(), now()
    from generate_series(0, ${count - 1}::int) g`);
  await handle.db.execute(sql`analyze email_messages`);
}

async function countRecorded(handle: DbHandle, prefix: string): Promise<number> {
  const rows = (await handle.db.execute(sql`
    select count(*)::int as n from email_message_logs l join email_messages m on m.id = l.email_message_id
    where m.reference_id like ${prefix + "%"} and l.provider_event_id like 'ses:%'`)) as unknown;
  return firstRow<{ n: number }>(rows).n;
}

/**
 * CPU ms of each PostgreSQL backend connected to the bench's database (by pid), when the server runs
 * on this machine (/proc readable); an empty map otherwise.
 */
async function backendCpuMs(handle: DbHandle): Promise<Map<number, number>> {
  const rows = (await handle.db.execute(
    sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
  )) as unknown;
  const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as Array<{ pid: number }>;
  const cpu = new Map<number, number>();
  for (const { pid } of list) {
    const ms = serverCpuMs(pid);
    if (ms !== null) cpu.set(pid, ms);
  }
  return cpu;
}

/** The CPU the backends used between two readings (a backend that appeared meanwhile counts from 0). */
function cpuDelta(before: Map<number, number>, after: Map<number, number>): number | null {
  if (after.size === 0) return null;
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** utime + stime of a Linux process, in ms (clock ticks of 10 ms, the kernel's USER_HZ of 100). */
function serverCpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * The floor of the door: the same requests refused at once (an unsigned body: 401 after a JSON.parse),
 * so what remains is the HTTP server, Next.js's routing and the route. Returns requests/s and server
 * CPU ms per request.
 */
export async function benchSnsFloor(
  opts: Pick<SnsBenchOptions, "origin" | "concurrency" | "serverPid" | "count">,
): Promise<{ perSecond: number; cpuMs: number | null }> {
  const body = JSON.stringify({ Type: "Notification", Message: "{}" });
  const cpuBefore = serverCpuMs(opts.serverPid);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (next++ < opts.count) {
        const response = await fetch(`${opts.origin}/api/provider-events/ses`, {
          method: "POST",
          headers: { "content-type": "text/plain; charset=UTF-8" },
          body,
        });
        await response.arrayBuffer();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = serverCpuMs(opts.serverPid);
  return {
    perSecond: opts.count / seconds,
    cpuMs: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / opts.count,
  };
}
