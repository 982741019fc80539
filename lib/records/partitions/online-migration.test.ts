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
import { addDays, dayStart, daySuffix } from "./bounds";
import { ensurePartitions } from "./ensure-partitions";
import { MESSAGE_FAMILY } from "./family";
import { sealLegacyPartitions } from "./seal-legacy-partitions";

/**
 * The online migration of a database that has data (docs/self-hosting.md#partitioned-messages): migrations up to
 * 0021, rows written as that schema took them, then migration 0022 and the manager's seal. No row moves and no table
 * is rewritten (each old table keeps its file), every row reads back the same, and the keys stay in force.
 */
const TABLES = ["email_messages", "email_message_recipients", "email_message_logs", "local_inbox"];
const BEFORE_PARTITIONING = 21;
const now = new Date();
let database: Awaited<ReturnType<typeof openEmptyDatabase>>;
let handle: DbHandle;

const query = async (text: string) => rowsOf(await handle.db.execute(sql.raw(text)));
const contents = async () =>
  Object.fromEntries(
    await Promise.all(
      TABLES.map(async (table) => [table, await query(`select to_jsonb(t) as row from ${table} t order by 1::text`)]),
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
    expect(kinds.map((row) => row.relkind)).toEqual(["p", "p", "p", "p"]);
    const legacy = await files();
    expect(await contents()).toEqual(rows);
    for (const table of TABLES)
      expect((await query(`select relfilenode from pg_class where relname = '${table}_legacy'`))[0].relfilenode).toBe(
        before[table],
      );
    expect(Object.values(legacy).every((file) => Number(file) === 0)).toBe(true); // parents hold no rows

    expect(await sealLegacyPartitions(handle.db, MESSAGE_FAMILY, now)).toBe(true);
    expect(await ensurePartitions(handle.db, MESSAGE_FAMILY, now)).toContain(daySuffix(addDays(dayStart(now), 3)));
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
});
