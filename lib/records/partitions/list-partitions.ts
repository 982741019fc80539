import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { boundTime } from "./bounds";
import type { PartitionFamily } from "./family";
import { rootOf } from "./family";

export interface Partition {
  name: string;
  /** The DEFAULT partition: what no range holds. */
  isDefault: boolean;
  /** Null: MINVALUE (the legacy partition) or the default partition. */
  from: string | null;
  to: string | null;
  /** When its range ends (the first millisecond past it); null for the default partition. */
  endsAt: Date | null;
}

const RANGE = /^FOR VALUES FROM \((MINVALUE|'([^']*)')\) TO \('([^']*)'\)$/;

/** The root's partitions, oldest range first, the default last; the other tables' follow the same ranges. */
export async function listPartitions(db: Executor, family: PartitionFamily): Promise<Partition[]> {
  const rows = rowsOf(
    await db.execute(sql`
      select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
      from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = ${`public.${rootOf(family).name}`}::regclass`),
  );
  const partitions = rows.map((row) => parseBound(family, String(row.name), String(row.bound)));
  return partitions.sort((a, b) => rank(a) - rank(b));
}

function parseBound(family: PartitionFamily, name: string, bound: string): Partition {
  if (bound === "DEFAULT") return { name, isDefault: true, from: null, to: null, endsAt: null };
  const match = RANGE.exec(bound);
  if (!match) throw new Error(`Partition ${name} has a bound the manager does not make: ${bound}`);
  const to = match[3];
  return { name, isDefault: false, from: match[2] ?? null, to, endsAt: boundTime(family.prefix, to) };
}

const rank = (partition: Partition) => partition.endsAt?.getTime() ?? Number.MAX_SAFE_INTEGER;
