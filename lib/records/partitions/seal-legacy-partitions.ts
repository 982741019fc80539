import "server-only";
import { sql } from "drizzle-orm";
import type { Db, Executor } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { addDays, boundTime, dayStart, idBound } from "./bounds";
import { inLockBoundTransaction, runDdl } from "./ddl";
import { defaultOf, legacyOf, prefixOf, rootOf, type PartitionedTable, type PartitionFamily } from "./family";

/** Days between the seal and its cut: validating a large legacy table takes a while, and rows keep arriving. */
const CUT_AHEAD_DAYS = 2;

/**
 * Step 2 of the online migration (docs/self-hosting.md#partitioned-messages): migration 0022 left each old table as
 * its parent's DEFAULT partition. Here each gets a CHECK that its keys lie below a cut two days ahead (added NOT
 * VALID: no scan; then validated, which scans without blocking writes), and then, in one short transaction, becomes
 * the range [MINVALUE, cut), which the validated check lets PostgreSQL attach unscanned; an empty DEFAULT partition
 * takes its place as the safety net. No row moves. True when it sealed; false when there was nothing to seal.
 */
export async function sealLegacyPartitions(db: Db, family: PartitionFamily, now: Date): Promise<boolean> {
  const legacyRoot = legacyOf(rootOf(family));
  if (!(await isDefaultPartition(db, legacyRoot))) return false;
  // A run that stopped half way left its check: keep its cut, the rows since were checked against it.
  const cutAt = (await existingCut(db, family)) ?? addDays(dayStart(now), CUT_AHEAD_DAYS);
  const cutOf = (table: PartitionedTable) => idBound(prefixOf(family, table), cutAt);
  await inLockBoundTransaction(db, family, async (tx) => {
    for (const table of family.tables) {
      if (await constraintExists(tx, legacyOf(table), boundCheck(table))) continue;
      await runDdl(tx, [
        `ALTER TABLE "${legacyOf(table)}" ADD CONSTRAINT "${boundCheck(table)}" CHECK ("${table.key}" ~<~ '${cutOf(table)}') NOT VALID`,
      ]);
    }
  });
  for (const table of family.tables)
    await runDdl(db, [`ALTER TABLE "${legacyOf(table)}" VALIDATE CONSTRAINT "${boundCheck(table)}"`]);
  await inLockBoundTransaction(db, family, async (tx) => {
    for (const table of family.tables) {
      const fallback = defaultOf(table);
      await runDdl(tx, [
        `ALTER TABLE "${table.name}" DETACH PARTITION "${legacyOf(table)}"`,
        `ALTER TABLE "${table.name}" ATTACH PARTITION "${legacyOf(table)}" FOR VALUES FROM (MINVALUE) TO ('${cutOf(table)}')`,
        `CREATE TABLE "${fallback}" (LIKE "${table.name}" INCLUDING DEFAULTS INCLUDING COMPRESSION)`,
        ...table.leafKeys(fallback, defaultOf),
        `ALTER TABLE "${table.name}" ATTACH PARTITION "${fallback}" DEFAULT`,
      ]);
    }
  });
  return true;
}

const boundCheck = (table: PartitionedTable) => `${legacyOf(table)}_bound`;

async function isDefaultPartition(db: Db, name: string): Promise<boolean> {
  const rows = rowsOf(
    await db.execute(sql`
      select 1 from pg_class c join pg_inherits i on i.inhrelid = c.oid
      where c.oid = to_regclass(${`public.${name}`}) and pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT'`),
  );
  return rows.length > 0;
}

async function constraintExists(db: Executor, table: string, name: string): Promise<boolean> {
  const rows = rowsOf(
    await db.execute(
      sql`select 1 from pg_constraint where conrelid = to_regclass(${`public.${table}`}) and conname = ${name}`,
    ),
  );
  return rows.length > 0;
}

/** The time of the cut a stopped run checked the root's legacy table against, or null. */
async function existingCut(db: Db, family: PartitionFamily): Promise<Date | null> {
  const legacyRoot = legacyOf(rootOf(family));
  const rows = rowsOf(
    await db.execute(sql`
      select pg_get_constraintdef(oid) as definition from pg_constraint
      where conrelid = to_regclass(${`public.${legacyRoot}`}) and conname = ${`${legacyRoot}_bound`}`),
  );
  const match = rows[0] ? /'([^']+)'/.exec(String(rows[0].definition)) : null;
  return match ? boundTime(family.prefix, match[1]) : null;
}
