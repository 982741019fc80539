import type { PgBoss } from "pg-boss";

/**
 * Every reach into pg-boss past its public API (docs/architecture.md#dependency-internals): the text
 * of its job insert, captured through the public `db` option of `boss.insert` and spliced into a
 * larger statement. The canary, internals/pg-boss.canary.test.ts, says what to re-check.
 */
export const PG_BOSS = {
  dependency: "pg-boss",
  writtenFor: "12.35.0",
  file: "internals/pg-boss.ts",
  recheck:
    "the text `boss.insert` runs (insertJobs in pg-boss's plans.js): one `$1` holding the jobs' JSON, and either a plain INSERT " +
    "or `WITH ins AS (…), notified AS (…) SELECT id FROM ins WHERE … (SELECT count(*) FROM notified) …`; then lib/sending/accept-statement.test.ts",
};

/**
 * pg-boss's insert of one queue's jobs as CTEs for a caller's larger statement: the text before and
 * after its one parameter (the jobs' JSON), and `touch`, an expression the caller's output must read
 * so PostgreSQL runs the NOTIFY CTE (it skips a plain CTE that nothing reads). Its
 * `WITH ins AS (…), notified AS (…) SELECT …` cannot nest inside another WITH (a data-modifying CTE
 * must be at the top level), hence CTEs joined to the caller's rather than a subquery.
 */
export interface CapturedJobInsert {
  before: string;
  after: string;
  touch: string;
}

/** Captures the text `boss.insert` runs for `queue`, with an executor that only records it. */
export async function captureJobInsert(boss: PgBoss, queue: string): Promise<CapturedJobInsert> {
  let text = "";
  const recorder = { executeSql: async (statement: string) => ((text = statement), { rows: [] }) };
  await boss.insert(queue, [{ data: {} }], { db: recorder });
  return splitJobInsert(text);
}

/** Splits a captured insert into CapturedJobInsert's parts; throws, quoting it, if its shape changed. */
export function splitJobInsert(text: string): CapturedJobInsert {
  const shapeError = () =>
    new Error(
      `pg-boss's job insert changed shape (${PG_BOSS.file}, written for pg-boss ${PG_BOSS.writtenFor}):\n${text}`,
    );
  const parts = text.split("$1");
  if (parts.length !== 2) throw shapeError();
  const body = text.trim();
  const notifying = /^WITH\s+ins\s+AS\s*\(/i.exec(body);
  if (!notifying) {
    if (!/^INSERT\s/i.test(body)) throw shapeError();
    const [before, after] = `ins AS (${body})`.split("$1");
    return { before: before!, after: after!, touch: "0" };
  }
  // `WITH ins AS (…), notified AS (…)` then its final SELECT: keep the CTEs, drop both ends.
  const finalSelect = body.search(
    /\)\s*SELECT\s+id\s+FROM\s+ins\s+WHERE[^)]*\(SELECT count\(\*\) FROM notified\)[^)]*$/i,
  );
  if (finalSelect < 0 || !/\bnotified\s+AS\s*\(/i.test(body)) throw shapeError();
  const [before, after] = `${body.slice("WITH".length, finalSelect + 1)}`.split("$1");
  return { before: before!, after: after!, touch: "(SELECT count(*) FROM notified)" };
}
