import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A release's migrations, as its fixture records them (db/upgrade/<version>/migrations.json): its
 * drizzle journal and the sha256 of each SQL file. The files themselves are HEAD's: released
 * migrations are append-only, so HEAD's copies are the release's as long as the hashes hold.
 */
export interface JournalEntry {
  idx: number;
  version: string;
  when: number;
  tag: string;
  breakpoints: boolean;
}
export interface MigrationsManifest {
  journal: { version: string; dialect: string; entries: JournalEntry[] };
  sha256: Record<string, string>;
}

export const HEAD_MIGRATIONS = path.join(process.cwd(), "db", "migrations");
const UPGRADE = path.join(process.cwd(), "db", "upgrade");

export function readManifest(release: string): MigrationsManifest {
  return JSON.parse(fs.readFileSync(path.join(UPGRADE, release, "migrations.json"), "utf8"));
}

export const sha256Of = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

/** Why HEAD's copy of a released migration is not the release's, or null when it is. */
export function releasedMigrationProblem(release: string, name: string, expectedSha256: string): string | null {
  const head = path.join(HEAD_MIGRATIONS, name);
  if (!fs.existsSync(head)) return `db/migrations/${name} was removed`;
  if (sha256Of(head) !== expectedSha256)
    return `db/migrations/${name} changed since ${release}: released migrations are append-only`;
  return null;
}

/**
 * A temporary migrations folder holding exactly what the release shipped: HEAD's files it names
 * (each checked against its hash) and a journal with only its entries. The caller removes it.
 */
export function assembleReleasedMigrations(release: string): string {
  const manifest = readManifest(release);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `postwerk-migrations-${release}-`));
  fs.mkdirSync(path.join(folder, "meta"));
  for (const [name, hash] of Object.entries(manifest.sha256)) {
    const problem = releasedMigrationProblem(release, name, hash);
    if (problem) {
      fs.rmSync(folder, { recursive: true, force: true });
      throw new Error(problem);
    }
    fs.copyFileSync(path.join(HEAD_MIGRATIONS, name), path.join(folder, name));
  }
  fs.writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify(manifest.journal, null, 2));
  return folder;
}
