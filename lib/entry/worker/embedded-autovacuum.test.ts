import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDbHandle } from "@/db/client";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { duePartitionedAnalyze, dueWork, runAutovacuumPass, startEmbeddedAutovacuum } from "./embedded-autovacuum";

const stats = { schema: "public", table: "t", reltuples: 10_000, dead: 0, modified: 0, inserted: 0 };

describe("autovacuum's thresholds", () => {
  it("analyzes past 50 + 10 % changed rows, vacuums past 50 + 20 % dead or 1,000 + 20 % inserted", () => {
    expect(dueWork([{ ...stats, modified: 1050 }])).toEqual([]);
    expect(dueWork([{ ...stats, modified: 1051 }])).toEqual([{ table: '"public"."t"', statement: "ANALYZE" }]);
    expect(dueWork([{ ...stats, dead: 2051 }])).toEqual([{ table: '"public"."t"', statement: "VACUUM" }]);
    expect(dueWork([{ ...stats, inserted: 3001, modified: 3001 }])).toEqual([
      { table: '"public"."t"', statement: "VACUUM (ANALYZE)" },
    ]);
    // Never analyzed (reltuples -1): the thresholds of an empty table.
    expect(dueWork([{ ...stats, reltuples: -1, modified: 51 }])).toEqual([
      { table: '"public"."t"', statement: "ANALYZE" },
    ]);
    expect(dueWork([{ ...stats, schema: "pg boss", table: 'a"b', dead: 5000 }])).toEqual([
      { table: '"pg boss"."a""b"', statement: "VACUUM" },
    ]);
  });
});

describe("a partitioned table's threshold", () => {
  it("analyzes it when its partitions' rows drift past 50 + 10 % of its last count, either way, or it was never analyzed", () => {
    const parent = { schema: "public", table: "p", reltuples: 10_000, liveInPartitions: 11_050 };
    expect(duePartitionedAnalyze([parent])).toEqual([]);
    expect(duePartitionedAnalyze([{ ...parent, liveInPartitions: 11_051 }])).toEqual([
      { table: '"public"."p"', statement: "ANALYZE" },
    ]);
    expect(duePartitionedAnalyze([{ ...parent, liveInPartitions: 8_949 }])).toHaveLength(1);
    expect(duePartitionedAnalyze([{ ...parent, reltuples: -1, liveInPartitions: 50 }])).toEqual([]);
    expect(duePartitionedAnalyze([{ ...parent, reltuples: -1, liveInPartitions: 51 }])).toHaveLength(1);
  });
});

const rowsOf = <T>(result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];

// The embedded database only: PostgreSQL runs its own autovacuum, which may get there first.
describe.skipIf(!!process.env.DATABASE_URL)("a pass on the embedded database", () => {
  it("analyzes a table that grew, and a page of messages then walks the index instead of sorting the workspace", async () => {
    const handle = await getDbHandle();
    const { workspace } = await createTestWorkspace();
    await handle.db.execute(sql`
      insert into email_messages (id, workspace_id, source, sandbox, status, "to", to_addresses, "from", subject, body_html, body_text, created_at, updated_at)
      select 'em_T' || lpad(g::text, 15, '0'), ${workspace.id}, 'API', false, 'SUCCEEDED', jsonb_build_array('u' || g || '@example.org'),
             array['u' || g || '@example.org'], 'hello@example.com', 'Hi', '<p>Hi</p>', 'Hi', now() - make_interval(secs => g), now()
      from generate_series(1, 5000) g`);
    await handle.db.execute(
      sql`delete from email_messages where workspace_id = ${workspace.id} and id < 'em_T000000000001000'`,
    );
    // The statistics reach pg_stat_user_tables when the backend flushes them (at most once a second).
    await handle.db.execute(sql`select pg_stat_force_next_flush()`);
    await handle.db.execute(sql`select 1`);
    const page = sql`explain select id from email_messages where workspace_id = ${workspace.id} order by created_at desc, id desc limit 51`;
    const planText = async () =>
      rowsOf<{ "QUERY PLAN": string }>(await handle.db.execute(page))
        .map((row) => row["QUERY PLAN"])
        .join("\n");
    expect(await planText()).toMatch(/Sort/);

    const work = await runAutovacuumPass(handle);

    // The partition that took the rows is vacuumed and analyzed, then the partitioned table is analyzed.
    expect(work).toContainEqual({
      table: expect.stringMatching(/^"public"\."email_messages_/),
      statement: "VACUUM (ANALYZE)",
    });
    expect(work.at(-1)).toEqual({ table: '"public"."email_messages"', statement: "ANALYZE" });
    const [analyzed] = rowsOf<{ reltuples: number; dead: number }>(
      await handle.db.execute(
        sql`select (select reltuples::float8 from pg_class where relname = 'email_messages') as reltuples,
                   sum(s.n_dead_tup)::float8 as dead
            from pg_stat_user_tables s join pg_class c on c.oid = s.relid
            where c.relispartition and pg_partition_root(c.oid) = 'email_messages'::regclass`,
      ),
    );
    expect(analyzed.reltuples).toBeGreaterThanOrEqual(3999);
    expect(analyzed.dead).toBe(0);
    const plan = await planText();
    expect(plan).toMatch(/Index (Only )?Scan Backward using email_messages_\w*idx/);
    expect(plan).not.toMatch(/Sort/);
    // Nothing is due right after a pass.
    expect(await runAutovacuumPass(handle)).not.toContainEqual(
      expect.objectContaining({ table: expect.stringMatching(/^"public"\."email_messages/) }),
    );
  });

  it("runs passes on its timer until stopped", async () => {
    const handle = await getDbHandle();
    const { workspace } = await createTestWorkspace();
    await handle.db.execute(sql`create table autovacuum_probe (id int primary key, w text)`);
    await handle.db.execute(sql`insert into autovacuum_probe select g, ${workspace.id} from generate_series(1, 500) g`);
    await handle.db.execute(sql`select pg_stat_force_next_flush()`);
    await handle.db.execute(sql`select 1`);
    const lastAnalyze = async () =>
      rowsOf<{ at: Date | null }>(
        await handle.db.execute(
          sql`select last_analyze as at from pg_stat_user_tables where relname = 'autovacuum_probe'`,
        ),
      )[0].at;
    expect(await lastAnalyze()).toBeNull();

    const autovacuum = startEmbeddedAutovacuum(handle, 20);
    await expect.poll(lastAnalyze, { timeout: 5000 }).not.toBeNull();
    await autovacuum.stop();
  });
});
