import { sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { addDays, idBound } from "./bounds";
import type { PartitionFamily } from "./family";

/**
 * The family's key below the ids of the day after `before`. For rows whose ids carry their creation time, that is
 * every row of `created_at < before`, and the planner leaves out the partitions of the later days. The key compares
 * with text_pattern_ops, so the range is written with its `~<~`. A day of margin: a row's id and its created_at
 * are made a moment apart.
 */
export function keyMadeBefore(family: PartitionFamily, column: PgColumn, before: Date): SQL {
  return sql`${column} ~<~ ${idBound(family.prefix, addDays(before, 1))}`;
}

/** The family's key at or above the ids of the day before `from`: every row of `created_at >= from`, the earlier days left out. */
export function keyMadeFrom(family: PartitionFamily, column: PgColumn, from: Date): SQL {
  return sql`${column} ~>=~ ${idBound(family.prefix, addDays(from, -1))}`;
}
