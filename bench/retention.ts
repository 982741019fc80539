/**
 * npm run bench:retention [-- --days 120 --per-day 2000 --window 30 --body-days 7]
 *
 * The whole lifecycle of stored mail on a moved clock, on the PostgreSQL server in a scratch database: every
 * simulated day, the hourly maintenance runs at that day's clock (partitions created ahead and dropped past every
 * window, bodies purged after `--body-days`, metadata after `--window`), then the day's `--per-day` messages arrive
 * (copies of messages the service really sent, delivered and reported by webhook: bench/support/retention-traffic.ts),
 * then VACUUM (ANALYZE) stands for the day's autovacuum runs. Prints the database's size by day (it must rise for the
 * window and then stay within ±10 %), and the bytes a message keeps once its body is purged, by table, heap and
 * indexes. A benchmark, not a test: sizes are exact, times vary with the machine.
 */
import { parseArgs } from "node:util";
import { eq, sql } from "drizzle-orm";
import { installDbHandle, openPostgres } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { migrateDatabase } from "@/db/migrate";
import { workspaces } from "@/db/schema";
import { setClock } from "@/lib/foundation/clock";
import { createWorkspace } from "@/lib/domain/workspaces/create-workspace";
import { createEndpoint } from "@/lib/flows/webhooks/manage-endpoints";
import { addDays, dayStart, daySuffix } from "@/lib/records/partitions/bounds";
import { MESSAGE_FAMILY, WEBHOOK_FAMILY } from "@/lib/records/partitions/family";
import { runMaintenance } from "@/lib/entry/worker/maintenance";
import { stopQueue } from "@/lib/records/queue/queue";
import { COPIED_TABLES, copyDay, sendTemplateMessages } from "./support/retention-traffic";
import { scratchPostgres } from "./support/server";

const { values: args } = parseArgs({
  options: {
    days: { type: "string", default: "120" },
    "per-day": { type: "string", default: "2000" },
    window: { type: "string", default: "30" },
    "body-days": { type: "string", default: "7" },
    templates: { type: "string", default: "20" },
    "pg-url": {
      type: "string",
      default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
  },
});
const DAYS = Number(args.days);
const PER_DAY = Number(args["per-day"]);
const WINDOW = Number(args.window);
const BODY_DAYS = Number(args["body-days"]);

const MESSAGE_TABLES = MESSAGE_FAMILY.tables.map((table) => table.name);
// Every copied table is partitioned by day: the messages family and the webhook log.
const DAY_TABLES = [...MESSAGE_TABLES, ...WEBHOOK_FAMILY.tables.map((table) => table.name)];
if (COPIED_TABLES.some((table) => !DAY_TABLES.includes(table))) throw new Error("a copied table is not partitioned");
const MB = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function query<T>(db: Awaited<ReturnType<typeof openPostgres>>["db"], text: string): Promise<T[]> {
  return rowsOf(await db.execute(sql.raw(text))) as T[];
}

interface DaySize {
  day: number;
  kept: number;
  database: number;
  mail: number;
  seconds: number;
}

/** The mail's tables (every partition of the messages family and the webhook log) and the whole database. */
async function sizes(db: Awaited<ReturnType<typeof openPostgres>>["db"]) {
  const [row] = await query<{ database: string; mail: string; kept: string }>(
    db,
    `select pg_database_size(current_database()) as database,
            (select sum(pg_total_relation_size(t.relid)) from (
               ${DAY_TABLES.map((table) => `select relid from pg_partition_tree('${table}') where isleaf`).join(" union all ")}
             ) t) as mail,
            (select count(*) from email_messages) as kept`,
  );
  return { database: Number(row.database), mail: Number(row.mail), kept: Number(row.kept) };
}

/** Bytes per message of one day whose bodies are purged: the day's partitions of every table. */
async function bytesPerMessage(db: Awaited<ReturnType<typeof openPostgres>>["db"], day: Date) {
  const suffix = daySuffix(day);
  const [{ messages }] = await query<{ messages: string }>(
    db,
    `select count(*) as messages from email_messages_${suffix}`,
  );
  const lines: Array<{ table: string; live: number; heap: number; toast: number; indexes: number }> = [];
  for (const table of DAY_TABLES) {
    const leaf = `${table}_${suffix}`;
    const share = Number(messages);
    const [size] = await query<{ heap: string; total: string; indexes: string }>(
      db,
      `select pg_relation_size('${leaf}') as heap, pg_total_relation_size('${leaf}') as total, pg_indexes_size('${leaf}') as indexes`,
    );
    // What the live rows hold (pg_column_size of each row), beside the heap's pages: the rest is free space.
    const [live] = await query<{ bytes: string }>(
      db,
      `select coalesce(sum(pg_column_size(t.*)), 0) as bytes from ${leaf} t`,
    );
    const heap = Number(size.heap) / share;
    const indexes = Number(size.indexes) / share;
    lines.push({
      table,
      live: Number(live.bytes) / share,
      heap,
      indexes,
      toast: Number(size.total) / share - heap - indexes,
    });
  }
  return { messages: Number(messages), lines };
}

async function main() {
  process.env.WEBHOOKS_ALLOW_LOCAL = "true";
  const database = await scratchPostgres(args["pg-url"]!);
  if (!database) return;
  const handle = await openPostgres(database.url, 2);
  const db = handle.db;
  try {
    await migrateDatabase(handle);
    installDbHandle(handle);
    const today = dayStart(new Date());
    await runMaintenance(new Date()); // seals the legacy tables: the templates of today go there
    const templates = await sendTemplateMessages(Number(args.templates));
    const simulated = await createWorkspace({ name: "Retention bench: traffic" });
    const endpoint = await createEndpoint(simulated.id, { url: "http://127.0.0.1:9/hooks" }, "bench");
    const windows = { bodyRetentionDays: BODY_DAYS, metadataRetentionDays: WINDOW };
    await db.update(workspaces).set(windows).where(eq(workspaces.id, simulated.id));
    // The templates' workspace keeps its rows (legal hold) for every day to copy; its window counts like the other's.
    await db
      .update(workspaces)
      .set({ ...windows, legalHold: true, legalHoldAt: new Date() })
      .where(eq(workspaces.id, templates.workspaceId));
    console.log(
      `${DAYS} days of ${PER_DAY} messages a day, metadata window ${WINDOW} days, bodies ${BODY_DAYS} days; ` +
        `copies of ${templates.messageIds.length} messages sent through the API, delivered and reported by webhook`,
    );
    console.log("day  messages kept  database MB  mail tables MB  seconds");
    const series: DaySize[] = [];
    const first = addDays(today, 3); // past the legacy tables' range (the sealed cut is two days ahead)
    for (let day = 1; day <= DAYS; day++) {
      const started = performance.now();
      const start = addDays(first, day - 1);
      const clock = new Date(start.getTime() + 30 * 60_000);
      setClock(() => clock);
      await runMaintenance(clock);
      await copyDay(
        templates.messageIds,
        { workspaceId: simulated.id, endpointId: endpoint.endpoint.id },
        start,
        PER_DAY,
      );
      // Every table, the catalogs too: a day of autovacuum reaches pg_class and pg_attribute, where each day's
      // created and dropped partitions leave their rows.
      await db.execute(sql.raw(`vacuum (analyze)`));
      const size = await sizes(db);
      const seconds = (performance.now() - started) / 1000;
      series.push({ day, ...size, seconds });
      console.log(
        `${String(day).padStart(3)}  ${String(size.kept).padStart(13)}  ${MB(size.database).padStart(11)}  ${MB(size.mail).padStart(14)}  ${seconds.toFixed(1).padStart(7)}`,
      );
    }
    printSteadyState(series);
    const sampled = addDays(first, DAYS - 1 - Math.floor((WINDOW + BODY_DAYS) / 2));
    const { messages, lines } = await bytesPerMessage(db, sampled);
    console.log(`\nbytes per message once its body is purged (the ${messages} messages of ${daySuffix(sampled)}):`);
    console.log("table                    live rows   heap  toast  indexes  total");
    let total = 0;
    for (const line of lines) {
      const sum = line.heap + line.toast + line.indexes;
      total += sum;
      console.log(
        `${line.table.padEnd(24)} ${line.live.toFixed(0).padStart(9)} ${line.heap.toFixed(0).padStart(6)} ${line.toast.toFixed(0).padStart(6)} ${line.indexes.toFixed(0).padStart(8)} ${sum.toFixed(0).padStart(6)}`,
      );
    }
    console.log(`${"all".padEnd(24)} ${" ".repeat(32)} ${total.toFixed(0).padStart(6)}`);
    const timeline = lines
      .filter((line) => MESSAGE_TABLES.includes(line.table))
      .reduce((sum, line) => sum + line.heap + line.toast + line.indexes, 0);
    console.log(`metadata + timeline (the messages family): ${timeline.toFixed(0)} bytes per message (target ≤ 600)`);
  } finally {
    setClock(null);
    await stopQueue(); // started by the sends that made the templates
    await handle.close();
    await database.drop();
  }
}

/** The rise over the window, then the spread of the days after it (the first days past the window drop the first). */
function printSteadyState(series: DaySize[]) {
  const settled = series.filter((size) => size.day > WINDOW + 3);
  if (settled.length === 0) return;
  for (const key of ["database", "mail"] as const) {
    const values = settled.map((size) => size[key]);
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    const low = (Math.min(...values) - mean) / mean;
    const high = (Math.max(...values) - mean) / mean;
    const rise = `${MB(series[0][key])} MB on day 1 → ${MB(series[Math.min(WINDOW, series.length) - 1][key])} MB on day ${WINDOW}`;
    const within = Math.max(-low, high) <= 0.1 ? "within ±10 %" : "NOT within ±10 %";
    console.log(
      `${key === "database" ? "database" : "mail tables"}: ${rise}; days ${WINDOW + 4}–${series.length}: mean ${MB(mean)} MB, ` +
        `${(low * 100).toFixed(1)} % / +${(high * 100).toFixed(1)} % (${within})`,
    );
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  // The queue's timers outlive its stop by a poll; nothing is left to wait for.
  .finally(() => process.exit());
