/** The local PostgreSQL's log, read by the bench scripts run with log_min_duration_statement = 0 on their scratch database. */
import fs from "node:fs";

export const PG_LOG = "/var/log/postgresql/postgresql-15-main.log";

/**
 * The statements one database ran between two offsets of the log, grouped by text: each entry's count
 * and server time. `parse` counts the statements PostgreSQL parsed and planned afresh (an unnamed
 * statement: the extended protocol without a prepared name).
 */
export function statementsBetween(
  offset: number,
  end: number,
  database: string,
): Map<string, { count: number; ms: number; parses: number }> {
  const text = fs.readFileSync(PG_LOG).subarray(offset, end).toString("utf8");
  const stats = new Map<string, { count: number; ms: number; parses: number }>();
  const lines = text.split("\n");
  const keyOf = (index: number, rest: string) =>
    (rest.trim() || lines[index + 1]?.trim() || "").replace(/\$\d+/g, "$").replace(/\s+/g, " ").slice(0, 140);
  for (const [index, line] of lines.entries()) {
    if (!line.includes(`@${database} `)) continue;
    const parsed = /duration: [\d.]+ ms\s+parse <unnamed>: (.*)$/.exec(line);
    if (parsed) {
      const key = keyOf(index, parsed[1]);
      const entry = stats.get(key) ?? { count: 0, ms: 0, parses: 0 };
      entry.parses++;
      stats.set(key, entry);
      continue;
    }
    const found = /duration: ([\d.]+) ms\s+(?:execute [^:]*|statement): (.*)$/.exec(line);
    if (!found) continue;
    const key = keyOf(index, found[2]);
    const entry = stats.get(key) ?? { count: 0, ms: 0, parses: 0 };
    entry.count++;
    entry.ms += Number(found[1]);
    stats.set(key, entry);
  }
  return stats;
}

export function logSize(): number {
  return fs.statSync(PG_LOG).size;
}

/** Prints the statements per unit (`per` units ran), most frequent first. */
export function printStatements(
  label: string,
  stats: Map<string, { count: number; ms: number; parses: number }>,
  per: number,
): void {
  const rows = [...stats.entries()].sort((a, b) => b[1].count - a[1].count);
  const total = rows.reduce((sum, [, entry]) => sum + entry.count, 0);
  const parses = rows.reduce((sum, [, entry]) => sum + entry.parses, 0);
  const totalMs = rows.reduce((sum, [, entry]) => sum + entry.ms, 0);
  console.log(
    `\n${label}: ${(total / per).toFixed(2)} statements, ${(parses / per).toFixed(2)} parsed afresh, ${(totalMs / per).toFixed(3)} ms server time each`,
  );
  for (const [text, entry] of rows.slice(0, 25)) {
    console.log(
      `${(entry.count / per).toFixed(3).padStart(7)} ${(entry.parses / per).toFixed(2).padStart(5)}p ${(entry.ms / per).toFixed(3).padStart(7)}ms  ${text}`,
    );
  }
}
