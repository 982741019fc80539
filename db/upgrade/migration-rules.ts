/**
 * Expand, then contract (docs/upgrading.md#the-rule-expand-then-contract): during a rolling upgrade
 * the previous release runs on the new schema, so a migration may only add what the old code
 * ignores. A statement that removes or tightens what the old code uses (drop or rename a table or
 * column, change a column's type, make a column NOT NULL, add a NOT NULL column without a default)
 * belongs to a later release than the one that stopped using it, and says so in a comment inside
 * the statement:
 *
 *   -- upgrade-safe since v0.2.0: nothing reads or writes old_column from v0.2.0 on
 *
 * v0.2.0 must be a release with an upgrade fixture (db/upgrade/v0.2.0/), so it was cut and tested.
 * A scan of the SQL, not a parser: it errs on the side of asking for the comment.
 */
export interface RuleViolation {
  file: string;
  statement: string;
  rule: string;
}

const ESCAPE_HATCH = /--[ \t]*upgrade-safe since (v\d+\.\d+\.\d+):[ \t]*\S/i;

const CONTRACTING: Array<{ pattern: RegExp; rule: string }> = [
  { pattern: /\bDROP\s+TABLE\b/i, rule: "drops a table" },
  { pattern: /\bDROP\s+COLUMN\b/i, rule: "drops a column" },
  { pattern: /\bRENAME\b/i, rule: "renames a table or column" },
  { pattern: /\bALTER\s+COLUMN\s+\S+\s+(SET\s+DATA\s+)?TYPE\b/i, rule: "changes a column's type" },
  { pattern: /\bALTER\s+COLUMN\s+\S+\s+SET\s+NOT\s+NULL\b/i, rule: "makes a column NOT NULL" },
];

/** Each `ADD COLUMN name type …` clause up to the next comma or the statement's end. */
const ADD_COLUMN = /\bADD\s+COLUMN\s+(?:IF\s+NOT\s+EXISTS\s+)?("[^"]+"|\w+)([^,;]*)/gi;

function withoutComments(statement: string): string {
  return statement.replace(/--[^\n]*/g, "");
}

/**
 * The violations of one migration file. `releases` are the versions with a fixture: an escape
 * hatch naming any other version does not count.
 */
export function checkMigration(file: string, sqlText: string, releases: string[]): RuleViolation[] {
  const violations: RuleViolation[] = [];
  for (const raw of sqlText.split("--> statement-breakpoint")) {
    const statement = raw.trim();
    if (!statement) continue;
    const code = withoutComments(statement);
    const broken: string[] = [];
    for (const { pattern, rule } of CONTRACTING) if (pattern.test(code)) broken.push(rule);
    for (const [, column, rest] of code.matchAll(ADD_COLUMN))
      if (/\bNOT\s+NULL\b/i.test(rest) && !/\bDEFAULT\b/i.test(rest))
        broken.push(`adds the NOT NULL column ${column} without a default`);
    if (broken.length === 0) continue;
    const hatch = ESCAPE_HATCH.exec(statement);
    if (hatch && releases.includes(hatch[1])) continue;
    const because = hatch ? ` (the comment names ${hatch[1]}, which has no fixture in db/upgrade/)` : "";
    for (const rule of broken) violations.push({ file, statement: code.trim().slice(0, 200), rule: rule + because });
  }
  return violations;
}
