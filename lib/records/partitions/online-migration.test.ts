import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { migrateDatabase } from "@/db/migrate";
import { HEAD_MIGRATIONS } from "@/db/upgrade/released-migrations";
import { openEmptyDatabase } from "@/db/upgrade/empty-database";
import { newId } from "@/lib/foundation/ids";
import { addDays, dayStart, daySuffix, idBound } from "./bounds";
import { ensurePartitions } from "./ensure-partitions";
import { FAMILIES } from "./family";
import { sealLegacyPartitions } from "./seal-legacy-partitions";

/**
 * The online migration of a database that has data (docs/self-hosting.md#partitioned-messages): migrations up to
 * 0021, rows written as that schema took them, then migrations 0022 (messages), 0027 (webhooks) and 0028 (the API request
 * log) and 0029 (inbound mail, its dedupe keys moved to a table of their own) and the manager's seal. No row moves and no table
 * is rewritten (each old table keeps its file), every row reads back the same, and the keys stay in force.
 */
const TABLES = [
  "email_messages",
  "email_message_recipients",
  "email_message_logs",
  "local_inbox",
  // Migration 0027.
  "webhook_events",
  "webhook_deliveries",
  "webhook_attempts",
  // Migration 0028.
  "activity_logs",
  // Migration 0029.
  "inbound_messages",
  "inbound_message_raw",
];
const BEFORE_PARTITIONING = 21;
const now = new Date();
let database: Awaited<ReturnType<typeof openEmptyDatabase>>;
let handle: DbHandle;

const query = async (text: string) => rowsOf(await handle.db.execute(sql.raw(text)));
// Each table's columns as the seed wrote them: later migrations add columns the old rows read as null.
let seededColumns: Record<string, string[]> = {};
const columnsOf = async (table: string) =>
  (await query(`select column_name from information_schema.columns where table_name = '${table}' order by 1`)).map(
    (row) => String(row.column_name),
  );
const contents = async () =>
  Object.fromEntries(
    await Promise.all(
      TABLES.map(async (table) => {
        const added = (await columnsOf(table)).filter((column) => !seededColumns[table].includes(column));
        const rows = await query(
          `select to_jsonb(t) - '{${added.join(",")}}'::text[] as row from ${table} t order by 1::text`,
        );
        return [table, rows];
      }),
    ),
  );
const files = async () =>
  Object.fromEntries(
    (await query(`select relname, relfilenode from pg_class where relname = any('{${TABLES.join(",")}}')`)).map(
      (row) => [row.relname, row.relfilenode],
    ),
  );

/** HEAD's migrations up to `last`, as a folder drizzle's migrator reads. */
function migrationsUpTo(last: number): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-migrations-"));
  fs.mkdirSync(path.join(folder, "meta"));
  const journal = JSON.parse(fs.readFileSync(path.join(HEAD_MIGRATIONS, "meta", "_journal.json"), "utf8"));
  journal.entries = journal.entries.filter((entry: { idx: number }) => entry.idx <= last);
  fs.writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify(journal));
  for (const entry of journal.entries as Array<{ tag: string }>)
    fs.copyFileSync(path.join(HEAD_MIGRATIONS, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  return folder;
}

async function seed() {
  await query(`insert into workspaces (id, name) values ('ws_seeded', 'Seeded')`);
  await query(`insert into webhook_endpoints (id, workspace_id, url, secret_encrypted)
    values ('whep_seeded', 'ws_seeded', 'https://hooks.example.org', 'x')`);
  for (const days of [40, 10, 1]) {
    const at = addDays(now, -days);
    const id = newId("message", at);
    await query(`insert into email_messages (id, workspace_id, source, sandbox, status, "to", to_addresses, "from",
        subject, body_html, body_text, created_at, updated_at)
      values ('${id}', 'ws_seeded', 'API', false, 'SUCCEEDED', '["ada@example.org"]', '{ada@example.org}',
        'hello@example.com', 'Day -${days}', '<p>x</p>', 'x', '${at.toISOString()}', '${at.toISOString()}')`);
    await query(`insert into email_message_logs (id, workspace_id, email_message_id, code, message, created_at)
      values ('${newId("event", at)}', 'ws_seeded', '${id}', 'EMAIL_MESSAGE_SENT_PROVIDER_EVENT', 'Sent.', '${at.toISOString()}')`);
    await query(`insert into local_inbox (email_message_id, workspace_id, envelope_from, envelope_to, mime)
      values ('${id}', 'ws_seeded', 'hello@example.com', '["ada@example.org"]', 'Subject: x')`);
    const [event, delivery] = [newId("webhookEvent", at), newId("webhookDelivery", at)];
    await query(`insert into webhook_events (id, workspace_id, type, email_message_id, created_at)
      values ('${event}', 'ws_seeded', 'email.sent', '${id}', '${at.toISOString()}')`);
    await query(`insert into webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_seq, event_type,
        email_message_id, status, created_at)
      select '${delivery}', 'ws_seeded', 'whep_seeded', id, seq, type, '${id}', 'succeeded', created_at
      from webhook_events where id = '${event}'`);
    await query(`insert into webhook_attempts (id, workspace_id, delivery_id, endpoint_id, attempt, status, latency_ms)
      values ('${newId("webhookAttempt", at)}', 'ws_seeded', '${delivery}', 'whep_seeded', 1, 200, 5)`);
    await query(`insert into activity_logs (id, workspace_id, method, path, status, duration_ms, created_at)
      values ('${newId("activity", at)}', 'ws_seeded', 'POST', '/v1/email_messages', 201, 4, '${at.toISOString()}')`);
    const mail = newId("inboundMessage", at);
    await query(`insert into inbound_messages (id, workspace_id, recipient, dedupe_key, created_at)
      values ('${mail}', 'ws_seeded', 'support@in.example.org', 'key-${days}', '${at.toISOString()}')`);
    await query(`insert into inbound_message_raw (inbound_message_id, workspace_id, raw)
      values ('${mail}', 'ws_seeded', 'Subject: x')`);
  }
}

beforeAll(async () => {
  database = await openEmptyDatabase();
  handle = database.handle;
  const folder = migrationsUpTo(BEFORE_PARTITIONING);
  try {
    if (handle.driver === "pglite")
      await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder: folder });
    else await migratePostgres(handle.db, { migrationsFolder: folder });
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
  await seed();
  seededColumns = Object.fromEntries(await Promise.all(TABLES.map(async (table) => [table, await columnsOf(table)])));
}, 120_000);

afterAll(() => database?.drop());

describe("partitioning a database that has messages, online", { timeout: 120_000 }, () => {
  it("keeps every row and every table's file through migration 0022 and the seal, then takes new days", async () => {
    const rows = await contents();
    const before = await files();
    expect(rows.email_messages).toHaveLength(3);
    expect(rows.email_message_recipients).toHaveLength(3);

    await migrateDatabase(handle);
    const kinds = await query(`select relname, relkind from pg_class where relname = any('{${TABLES.join(",")}}')`);
    expect(kinds.map((row) => row.relkind)).toEqual(TABLES.map(() => "p"));
    const legacy = await files();
    expect(await contents()).toEqual(rows);
    for (const table of TABLES)
      expect((await query(`select relfilenode from pg_class where relname = '${table}_legacy'`))[0].relfilenode).toBe(
        before[table],
      );
    expect(Object.values(legacy).every((file) => Number(file) === 0)).toBe(true); // parents hold no rows

    for (const family of FAMILIES) {
      expect(await sealLegacyPartitions(handle.db, family, now)).toBe(true);
      expect(await ensurePartitions(handle.db, family, now)).toContain(
        `${family.tables[0].name}_${daySuffix(addDays(dayStart(now), 3))}`,
      );
    }
    expect(await contents()).toEqual(rows);
    for (const table of TABLES)
      expect((await query(`select relfilenode from pg_class where relname = '${table}_legacy'`))[0].relfilenode).toBe(
        before[table],
      );
  });

  it("keeps the old keys and triggers working on old rows and new days alike", async () => {
    const oldest = (await query(`select id from email_messages order by id limit 1`))[0].id;
    await query(`delete from email_messages where id = '${oldest}'`);
    for (const [table, column] of [
      ["email_message_logs", "email_message_id"],
      ["local_inbox", "email_message_id"],
      ["email_message_recipients", "email_message_id"],
    ])
      expect(await query(`select 1 from ${table} where ${column} = '${oldest}'`), table).toEqual([]);
    const at = addDays(dayStart(now), 3);
    const id = newId("message", at);
    await query(`insert into email_messages (id, workspace_id, source, sandbox, status, "to", to_addresses, "from",
        subject, body_html, body_text, created_at)
      values ('${id}', 'ws_seeded', 'API', false, 'PENDING', '["bo@example.org"]', '{bo@example.org}',
        'hello@example.com', 'New', '<p>x</p>', 'x', '${at.toISOString()}')`);
    const leaf = await query(
      `select tableoid::regclass::text as leaf from email_message_recipients where email_message_id = '${id}'`,
    );
    expect(leaf).toEqual([{ leaf: `email_message_recipients_${daySuffix(at)}` }]);
    const counted = await query(
      `select sum(accepted)::int as n from overview_day_counts where workspace_id = 'ws_seeded' and day = '${at.toISOString().slice(0, 10)}'`,
    );
    expect(counted[0].n).toBe(1);
  });

  it("keeps the webhook log's keys on old rows and makes new days' keys: a delivery takes its attempts along", async () => {
    const oldest = (await query(`select id from webhook_deliveries order by id limit 1`))[0].id;
    await query(`delete from webhook_deliveries where id = '${oldest}'`);
    expect(await query(`select 1 from webhook_attempts where delivery_id = '${oldest}'`)).toEqual([]);
    const at = addDays(dayStart(now), 3);
    const [event, delivery] = [newId("webhookEvent", at), newId("webhookDelivery", at)];
    await query(`insert into webhook_events (id, workspace_id, type) values ('${event}', 'ws_seeded', 'email.sent')`);
    await query(`insert into webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_seq, event_type)
      select '${delivery}', 'ws_seeded', 'whep_seeded', id, seq, type from webhook_events where id = '${event}'`);
    await query(`insert into webhook_attempts (id, workspace_id, delivery_id, endpoint_id, attempt, latency_ms)
      values ('${newId("webhookAttempt", at)}', 'ws_seeded', '${delivery}', 'whep_seeded', 1, 5)`);
    const leafOf = async (table: string, column: string, id: string) =>
      (await query(`select tableoid::regclass::text as leaf from ${table} where ${column} = '${id}'`))[0].leaf;
    expect(await leafOf("webhook_events", "id", event)).toBe(`webhook_events_${daySuffix(at)}`);
    expect(await leafOf("webhook_deliveries", "id", delivery)).toBe(`webhook_deliveries_${daySuffix(at)}`);
    expect(await leafOf("webhook_attempts", "delivery_id", delivery)).toBe(`webhook_attempts_${daySuffix(at)}`);
    // The seq keeps counting past the old rows'.
    const seqs = await query(`select seq from webhook_events order by seq`);
    expect(new Set(seqs.map((row) => row.seq)).size).toBe(seqs.length);
    await expect(
      query(`insert into webhook_attempts (id, workspace_id, delivery_id, endpoint_id, attempt, latency_ms)
        values ('what_x', 'ws_seeded', '${idBound("whdl_", at)}zzzzzzzz', 'whep_seeded', 1, 5)`),
    ).rejects.toThrow();
    await query(`delete from webhook_deliveries where id = '${delivery}'`);
    expect(await query(`select 1 from webhook_attempts where delivery_id = '${delivery}'`)).toEqual([]);
  });

  it("moves inbound mail's dedupe keys to their own table: an old mail's retry is still a duplicate", async () => {
    const keys = await query(`select dedupe_key, inbound_message_id from inbound_dedupe_keys order by 1`);
    expect(keys.map((row) => row.dedupe_key)).toEqual(["key-1", "key-10", "key-40"]);
    await expect(
      query(`insert into inbound_dedupe_keys (workspace_id, dedupe_key, inbound_message_id)
        values ('ws_seeded', 'key-40', 'inm_x')`),
    ).rejects.toThrow();
    const oldest = (await query(`select id from inbound_messages order by id limit 1`))[0].id;
    await query(`delete from inbound_messages where id = '${oldest}'`);
    expect(await query(`select 1 from inbound_message_raw where inbound_message_id = '${oldest}'`)).toEqual([]);
  });
});
