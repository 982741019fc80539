/**
 * npm run bench:purge [-- --messages 1000000 --seconds 15 --senders 4]
 *
 * Does dropping a day of mail stall sending? On the PostgreSQL server, in a scratch database: a past day's partition
 * is filled with `--messages` messages (with their recipient rows and three timeline events each), then single sends
 * (POST /v1/email_messages in this process, `--senders` at a time) run for `--seconds` three times: without a purge,
 * while the hourly maintenance drops that day, and without again. Prints each turn's latency percentiles, how long
 * the drop took, and the p99 with the purge against the turns without it. A benchmark, not a test: latencies vary
 * with the machine; compare the turns of one run.
 */
import { parseArgs } from "node:util";
import { eq, sql } from "drizzle-orm";
import { installDbHandle, openPostgres } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { workspaces } from "@/db/schema";
import { createWorkspace } from "@/lib/domain/workspaces/create-workspace";
import { setClock } from "@/lib/foundation/clock";
import { addDays, dayStart, daySuffix, idBound } from "@/lib/records/partitions/bounds";
import { ensurePartitions } from "@/lib/records/partitions/ensure-partitions";
import { FAMILIES, MESSAGE_FAMILY } from "@/lib/records/partitions/family";
import { dropExpiredPartitions } from "@/lib/records/partitions/drop-expired-partitions";
import { maintainPartitions } from "@/lib/records/partitions/maintain-partitions";
import { flushActivityLog } from "@/lib/records/activity/record-activity";
import { stopQueue } from "@/lib/records/queue/queue";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { POST as send } from "@/app/api/v1/email_messages/handlers";
import { percentile, scratchPostgres, sendBody } from "./support/server";

const { values: args } = parseArgs({
  options: {
    messages: { type: "string", default: "1000000" },
    seconds: { type: "string", default: "15" },
    senders: { type: "string", default: "4" },
    "pg-url": {
      type: "string",
      default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
  },
});
const MESSAGES = Number(args.messages);
const SECONDS = Number(args.seconds);
const SENDERS = Number(args.senders);
const WINDOW_DAYS = 7;

type Db = Awaited<ReturnType<typeof openPostgres>>["db"];

/** A day's messages in its partition (ids between the day's bounds), 100,000 per statement, each with 3 events. */
async function fillDay(db: Db, workspaceId: string, day: Date) {
  const bound = idBound("em_", day);
  for (let from = 1; from <= MESSAGES; from += 100_000) {
    const to = Math.min(MESSAGES, from + 99_999);
    await db.execute(sql`
      insert into email_messages (id, workspace_id, source, sandbox, status, "to", to_addresses, "from", subject, body_html, body_text,
                                  sent_at, delivered_at, created_at, updated_at)
      select ${bound} || lpad(g::text, 8, '0'), ${workspaceId}, 'API', false, 'SUCCEEDED',
             jsonb_build_array('reader' || g || '@example.org'), array['reader' || g || '@example.org'], 'bench@example.com',
             'Your order ' || g, '', '', t.at, t.at, t.at, t.at
      from generate_series(${from}::int, ${to}::int) g,
           lateral (select ${day.toISOString()}::timestamptz + make_interval(secs => g * 86000.0 / ${MESSAGES}) as at) t`);
    await db.execute(sql`
      insert into email_message_logs (id, workspace_id, email_message_id, code, message, created_at, updated_at)
      select 'ev_' || substr(${bound}, 4) || lpad((g * 3 + k)::text, 8, '0'), ${workspaceId}, ${bound} || lpad(g::text, 8, '0'),
             (array['EMAIL_MESSAGE_CREATED', 'EMAIL_MESSAGE_SENT_PROVIDER_EVENT', 'EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT'])[k + 1],
             'Recorded.', ${day.toISOString()}::timestamptz, ${day.toISOString()}::timestamptz
      from generate_series(${from}::int, ${to}::int) g, generate_series(0, 2) k`);
  }
  await db.execute(sql.raw(`vacuum (analyze) email_messages_${daySuffix(day)}, email_message_logs_${daySuffix(day)}`));
  // Written out now, not by a checkpoint during the first turn.
  await db.execute(sql`checkpoint`);
}

interface Turn {
  label: string;
  latencies: number[];
  dropMs?: number;
}

async function sendFor(authorization: string, label: string, during?: () => Promise<number>): Promise<Turn> {
  const latencies: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  let next = 0;
  const sender = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      const sent = await callRoute(send, "/api/v1/email_messages", { authorization, body: sendBody(next++) });
      if (sent.status !== 201) throw new Error(`send answered ${sent.status}: ${sent.text}`);
      latencies.push(performance.now() - started);
    }
  };
  // The purge starts two seconds in, with the senders at full speed.
  const purge = during
    ? new Promise<number>((resolve, reject) => setTimeout(() => during().then(resolve, reject), 2000))
    : Promise.resolve(undefined);
  const [dropMs] = await Promise.all([purge, ...Array.from({ length: SENDERS }, sender)]);
  latencies.sort((a, b) => a - b);
  return { label, latencies, dropMs };
}

function printTurn(turn: Turn) {
  const ms = (p: number) => percentile(turn.latencies, p).toFixed(1).padStart(7);
  const drop = turn.dropMs === undefined ? "" : `  (the drop took ${turn.dropMs.toFixed(0)} ms)`;
  console.log(
    `${turn.label.padEnd(16)} ${String(turn.latencies.length).padStart(6)} ${ms(0.5)} ${ms(0.95)} ${ms(0.99)} ${turn.latencies.at(-1)!.toFixed(1).padStart(7)}${drop}`,
  );
}

async function main() {
  process.env.RATE_LIMIT_PER_SECOND = "0"; // the senders measure the database, not the API key's rate limit
  const database = await scratchPostgres(args["pg-url"]!);
  if (!database) return;
  const handle = await openPostgres(database.url, 8);
  const db = handle.db;
  try {
    await migrateDatabase(handle);
    installDbHandle(handle);
    const now = new Date();
    await maintainPartitions({ now }); // seals the legacy tables, creates the days ahead
    const day = addDays(dayStart(now), 3);
    const old = await createWorkspace({ name: "Purge bench: the old day" });
    await db
      .update(workspaces)
      .set({ bodyRetentionDays: 1, metadataRetentionDays: WINDOW_DAYS })
      .where(eq(workspaces.id, old.id));
    const seeding = performance.now();
    await fillDay(db, old.id, day);
    console.log(
      `filled ${daySuffix(day)} with ${MESSAGES} messages in ${((performance.now() - seeding) / 1000).toFixed(0)} s`,
    );
    // The senders' workspace holds its mail (legal hold): the maintenance drops the old day and nothing else.
    const sender = await createTestWorkspace({ name: "Purge bench: senders" });
    await db
      .update(workspaces)
      .set({ bodyRetentionDays: 1, metadataRetentionDays: WINDOW_DAYS, legalHold: true, legalHoldAt: now })
      .where(eq(workspaces.id, sender.workspace.id));
    await sendFor(sender.authorization, "warm-up");
    const later = addDays(day, WINDOW_DAYS + 1.5);
    setClock(() => later);
    // The days ahead of the moved clock exist already, as they would: an hourly run creates at most one day, and
    // the turn measures the drop. The other families' days past their windows (empty here) are dropped before, as
    // the hourly runs of the days between would have: the turn drops the day of mail alone.
    for (const family of FAMILIES) {
      await ensurePartitions(db, family, later);
      if (family === MESSAGE_FAMILY) continue;
      await dropExpiredPartitions(db, family, { now: later, keepDays: family.keepDays(WINDOW_DAYS) });
    }
    console.log(`${SENDERS} senders, ${SECONDS} s a turn; latency of single sends in ms`);
    console.log("turn              sends     p50     p95     p99     max");
    const before = await sendFor(sender.authorization, "without purge");
    printTurn(before);
    const during = await sendFor(sender.authorization, "during the drop", async () => {
      const started = performance.now();
      const { dropped } = await maintainPartitions({ now: later });
      if (!dropped.includes(`email_messages_${daySuffix(day)}`)) throw new Error(`the day was not dropped: ${dropped}`);
      return performance.now() - started;
    });
    printTurn(during);
    const after = await sendFor(sender.authorization, "without purge");
    printTurn(after);
    const without = [...before.latencies, ...after.latencies].sort((a, b) => a - b);
    const ratio = percentile(during.latencies, 0.99) / percentile(without, 0.99);
    console.log(
      `p99 during the drop / without: ${ratio.toFixed(2)} (${((ratio - 1) * 100).toFixed(0)} %; target within +20 %)`,
    );
  } finally {
    setClock(null);
    await flushActivityLog(); // the last sends' request log, before its connection closes
    await stopQueue();
    await handle.close();
    await database.drop();
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  // The queue's timers outlive its stop by a poll; nothing is left to wait for.
  .finally(() => process.exit());
