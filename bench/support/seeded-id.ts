import { sql, type SQL } from "drizzle-orm";
import { ID_ALPHABET as ALPHABET } from "@/lib/foundation/ids";
/** 62^7 … 62^0: the eight base62 digits of an id's milliseconds (lib/foundation/ids.ts), most significant first. */
const POWERS = Array.from({ length: 8 }, (_, i) => (62n ** BigInt(7 - i)).toString());

/**
 * A seeded row's id in SQL, as newId makes one: the prefix, the base62 milliseconds of `at`, then `tail` (unique per
 * row, e.g. the series number). Ids carry their time: the messages table is partitioned by it, and its reads bound
 * ids by their time, so an id that disagreed with its created_at would be read in the wrong day.
 */
export function seededId(prefix: string, at: SQL, tail: SQL): SQL {
  const ms = sql`(extract(epoch from ${at}) * 1000)::bigint`;
  const digits = POWERS.map(
    (power) => sql`substr(${ALPHABET}, ((${ms} / ${sql.raw(power)}::bigint) % 62)::int + 1, 1)`,
  );
  return sql`${prefix} || ${sql.join(digits, sql` || `)} || (${tail})`;
}
