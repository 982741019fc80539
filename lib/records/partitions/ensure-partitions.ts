import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { log } from "@/lib/foundation/log";
import { addDays, dayStart, daySuffix, idBound } from "./bounds";
import { inLockBoundTransaction, runDdl } from "./ddl";
import { defaultOf, prefixOf, rootOf, type PartitionFamily } from "./family";
import { listPartitions } from "./list-partitions";

/** Days created ahead of today: a week of maintenance runs may fail before a row has to fall back to the default. */
export const AHEAD_DAYS = 7;

/**
 * Creates each missing day from the newest range up to `AHEAD_DAYS` past today, every table of the family in one
 * short transaction: each partition made on its own and then attached, which locks the parent only against other
 * schema changes (never against reads and writes), and checks the default partition, empty as a rule. A day some of
 * whose rows already fell back to the default is skipped: they stay there, trimmed by the batch purge. Returns the
 * root's partitions made. Nothing before the sealed legacy range is made.
 */
export async function ensurePartitions(db: Db, family: PartitionFamily, now: Date): Promise<string[]> {
  const partitions = await listPartitions(db, family);
  const ranges = partitions.filter((partition) => !partition.isDefault);
  if (ranges.length === 0) return []; // not sealed yet (sealLegacyPartitions)
  const newest = ranges[ranges.length - 1].endsAt!;
  const made: string[] = [];
  for (let day = dayStart(newest); day < addDays(dayStart(now), AHEAD_DAYS + 1); day = addDays(day, 1)) {
    const from = idBound(family.prefix, day);
    const to = idBound(family.prefix, addDays(day, 1));
    if (from < idBound(family.prefix, newest)) continue;
    if (await defaultHolds(db, family, from, to)) {
      log.warn("partition day skipped: rows of it are in the default partition", { day: daySuffix(day) });
      continue;
    }
    await inLockBoundTransaction(db, family, (tx) => runDdl(tx, dayStatements(family, day)));
    made.push(`${rootOf(family).name}_${daySuffix(day)}`);
  }
  return made;
}

function dayStatements(family: PartitionFamily, day: Date): string[] {
  const suffix = daySuffix(day);
  return family.tables.flatMap((table) => {
    const leaf = `${table.name}_${suffix}`;
    const prefix = prefixOf(family, table);
    const [from, to] = [idBound(prefix, day), idBound(prefix, addDays(day, 1))];
    return [
      `CREATE TABLE "${leaf}" (LIKE "${table.name}" INCLUDING DEFAULTS INCLUDING COMPRESSION)`,
      ...table.leafKeys(leaf, (other) => `${other}_${suffix}`),
      `ALTER TABLE "${table.name}" ATTACH PARTITION "${leaf}" FOR VALUES FROM ('${from}') TO ('${to}')`,
    ];
  });
}

/** Whether the safety net caught rows of [from, to): then attaching that range would fail. */
async function defaultHolds(db: Db, family: PartitionFamily, from: string, to: string): Promise<boolean> {
  const root = rootOf(family);
  const rows = rowsOf(
    await db.execute(
      sql.raw(
        `select 1 from "${defaultOf(root)}" where "${root.key}" ~>=~ '${from}' and "${root.key}" ~<~ '${to}' limit 1`,
      ),
    ),
  );
  return rows.length > 0;
}
