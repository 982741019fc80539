import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkMigration } from "./migration-rules";
import { readManifest, releasedMigrationProblem, type JournalEntry } from "./released-migrations";

/**
 * Migrations are append-only and expand before they contract (docs/upgrading.md): a released
 * migration never changes, and a new one keeps the previous release working on the new schema.
 */
const MIGRATIONS = path.join(process.cwd(), "db", "migrations");
const UPGRADE = path.join(process.cwd(), "db", "upgrade");
/** 0000…0013 came before the rule (0011 drops a foreign key, not a column); every later file follows it. */
const FIRST_CHECKED = 14;

const releases = fs.readdirSync(UPGRADE).filter((name) => /^v\d+\.\d+\.\d+$/.test(name));

const journal = (folder: string): JournalEntry[] =>
  JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")).entries;

describe.each(releases)("the migrations of %s", (release) => {
  it("are unchanged at HEAD (by their sha256), and HEAD's journal starts with the release's", () => {
    const manifest = readManifest(release);
    const hashes = Object.entries(manifest.sha256);
    expect(hashes.length).toBeGreaterThan(0);
    expect(hashes.map(([name]) => name)).toEqual(manifest.journal.entries.map((entry) => `${entry.tag}.sql`));
    const problems = hashes.map(([name, hash]) => releasedMigrationProblem(release, name, hash));
    expect(problems.filter((problem) => problem !== null)).toEqual([]);
    expect(journal(MIGRATIONS).slice(0, manifest.journal.entries.length)).toEqual(manifest.journal.entries);
  });
});

describe("migrations after 0013", () => {
  it("run in the order they were written: each journal entry is later than the one before", () => {
    // drizzle applies only migrations newer than the last applied one: an older timestamp would be skipped.
    const entries = journal(MIGRATIONS);
    for (let i = 1; i < entries.length; i++)
      expect(entries[i].when, `${entries[i].tag} after ${entries[i - 1].tag}`).toBeGreaterThan(entries[i - 1].when);
  });

  it("expand, then contract: no statement takes away what the previous release uses", () => {
    const checked = journal(MIGRATIONS).filter((entry) => entry.idx >= FIRST_CHECKED);
    const violations = checked.flatMap((entry) =>
      checkMigration(entry.tag, fs.readFileSync(path.join(MIGRATIONS, `${entry.tag}.sql`), "utf8"), releases),
    );
    expect(violations).toEqual([]);
  });
});

describe("the expand/contract scan", () => {
  const rules = (sqlText: string) => checkMigration("0099_test", sqlText, ["v0.1.0"]).map((found) => found.rule);

  it("lets through what the old code ignores: new tables, nullable or defaulted columns, indexes", () => {
    expect(
      rules(`CREATE TABLE "things" ("id" text PRIMARY KEY NOT NULL);--> statement-breakpoint
ALTER TABLE "email_messages" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "email_messages" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "things_idx" ON "things" USING btree ("id");`),
    ).toEqual([]);
  });

  it("names each statement that takes something away", () => {
    expect(
      rules(`ALTER TABLE "a" ADD COLUMN "b" text NOT NULL, ADD COLUMN "c" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "a" DROP COLUMN "d";--> statement-breakpoint
DROP TABLE "e";--> statement-breakpoint
ALTER TABLE "a" RENAME COLUMN "f" TO "g";--> statement-breakpoint
ALTER TABLE "a" ALTER COLUMN "h" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "a" ALTER COLUMN "i" SET NOT NULL;`),
    ).toEqual([
      'adds the NOT NULL column "b" without a default',
      "drops a column",
      "drops a table",
      "renames a table or column",
      "changes a column's type",
      "makes a column NOT NULL",
    ]);
  });

  it("accepts a contraction whose comment names a released version and why, and no other", () => {
    const drop = (comment: string) => `${comment}\nALTER TABLE "a" DROP COLUMN "d";`;
    expect(rules(drop("-- upgrade-safe since v0.1.0: nothing reads d from v0.1.0 on"))).toEqual([]);
    expect(rules(drop("-- upgrade-safe since v9.9.9: not released"))).toEqual([
      "drops a column (the comment names v9.9.9, which has no fixture in db/upgrade/)",
    ]);
    expect(rules(drop("-- upgrade-safe since v0.1.0:"))).toEqual(["drops a column"]);
    expect(rules(drop("-- DROP COLUMN in a comment alone is not a statement"))).toEqual(["drops a column"]);
    expect(rules("-- ALTER TABLE a DROP COLUMN d\nSELECT 1;")).toEqual([]);
  });
});
