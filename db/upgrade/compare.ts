import type { Row, Rows } from "@/scripts/upgrade-fixture/snapshot";

/**
 * The upgrade test's two comparisons. Both let HEAD add (a column, a field) and nothing else: every
 * value the release had must still be there, equal.
 */

/** A row as the text of the columns it had in the release, in the release's order. */
function projected(row: Row, columns: string[]): string {
  return JSON.stringify(columns.map((column) => [column, column in row ? row[column] : "<column gone>"]));
}

export interface MissingRow {
  table: string;
  /** The row as the release wrote it. */
  before: Row;
  /** The row of the same id after the upgrade, when there is one (a changed row), else null (a lost row). */
  after: Row | null;
}

/** Each release row that is not found, equal in every column it had, among the upgraded table's rows. */
export function missingRows(before: Rows, after: Rows): MissingRow[] {
  const missing: MissingRow[] = [];
  for (const [table, rows] of Object.entries(before)) {
    const now = after[table] ?? [];
    const left = new Map<string, number>();
    for (const row of rows) {
      const key = projected(row, Object.keys(row));
      if (left.has(key)) continue;
      const matching = now.filter((candidate) => projected(candidate, Object.keys(row)) === key).length;
      left.set(key, matching);
    }
    for (const row of rows) {
      const key = projected(row, Object.keys(row));
      const count = left.get(key) ?? 0;
      if (count > 0) {
        left.set(key, count - 1);
        continue;
      }
      const sameId = "id" in row ? (now.find((candidate) => candidate.id === row.id) ?? null) : null;
      missing.push({ table, before: row, after: sameId });
    }
  }
  return missing;
}

/** A difference HEAD may show, with the reason it is not a regression. */
export interface AllowedDifference {
  path: RegExp;
  field: RegExp;
  why: string;
}

/**
 * Where `now` does not hold `before`: each object key of `before` with an equal value (recursively),
 * each array the same length with each element held. Extra keys in `now` are fine. Fields are
 * written `data[0].status`.
 */
export function answerDifferences(before: unknown, now: unknown, field = ""): string[] {
  if (Array.isArray(before)) {
    if (!Array.isArray(now)) return [`${field || "(answer)"}: was an array, now ${JSON.stringify(now)}`];
    if (now.length !== before.length) return [`${field || "(answer)"}: ${before.length} items, now ${now.length}`];
    return before.flatMap((item, index) => answerDifferences(item, now[index], `${field}[${index}]`));
  }
  if (before !== null && typeof before === "object") {
    if (now === null || typeof now !== "object" || Array.isArray(now))
      return [`${field || "(answer)"}: was an object, now ${JSON.stringify(now)}`];
    return Object.entries(before).flatMap(([key, value]) =>
      key in now
        ? answerDifferences(value, (now as Record<string, unknown>)[key], field ? `${field}.${key}` : key)
        : [`${field ? `${field}.${key}` : key}: gone`],
    );
  }
  return Object.is(before, now) ? [] : [`${field}: ${JSON.stringify(before)}, now ${JSON.stringify(now)}`];
}
