import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

/** What each file of internals/ says about the dependency it reaches into. */
export interface Reach {
  /** The package, as package.json names it. */
  dependency: string;
  /** The version the reach was written and measured against. */
  writtenFor: string;
  /** The file of internals/ holding the reach. */
  file: string;
  /** What to read and re-check in the new version before raising `writtenFor`. */
  recheck: string;
}

function packageVersion(file: string): string {
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
}

/** The version in node_modules, read from the package's own package.json. */
export function installedVersion(dependency: string): string {
  return packageVersion(path.join(process.cwd(), "node_modules", dependency, "package.json"));
}

/** The version package.json pins (every dependency is pinned exactly). */
export function pinnedVersion(dependency: string): string | undefined {
  const manifest = JSON.parse(fs.readFileSync(path.join(process.cwd(), "package.json"), "utf8")) as Record<
    string,
    Record<string, string> | undefined
  >;
  return manifest.dependencies?.[dependency] ?? manifest.devDependencies?.[dependency];
}

function explain(reach: Reach, what: string): string {
  return (
    `${reach.dependency} ${installedVersion(reach.dependency)} (package.json pins ${pinnedVersion(reach.dependency)}): ${what}. ` +
    `${reach.file} was written for ${reach.dependency} ${reach.writtenFor}; re-check ${reach.recheck}, then raise its writtenFor.`
  );
}

/** The canary's first test: the installed and the pinned version are the one the reach was written for. */
export function itIsTheVersionWrittenFor(reach: Reach): void {
  it(`${reach.dependency} is the version ${reach.file} was written for`, () => {
    const installed = installedVersion(reach.dependency);
    const pinned = pinnedVersion(reach.dependency);
    expect(
      installed === reach.writtenFor && pinned === reach.writtenFor,
      explain(reach, "a different version is installed or pinned"),
    ).toBe(true);
  });
}

/** A test of one reach: its failure names the dependency, the version written for and what to re-check. */
export function itStillHolds(reach: Reach, what: string, check: () => unknown | Promise<unknown>): void {
  it(what, async () => {
    try {
      await check();
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      throw new Error(`${explain(reach, `"${what}" no longer holds`)}\n${cause}`, { cause: error });
    }
  });
}

/** A patch-package patch's added lines (the `+` lines of each hunk), per file it changes. */
export function addedLines(patch: string): Map<string, string[]> {
  const files = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of patch.split("\n")) {
    if (line.startsWith("+++ b/")) files.set(line.slice("+++ b/".length), (current = []));
    else if (line.startsWith("+") && current && line.slice(1).trim() !== "") current.push(line.slice(1));
  }
  return files;
}
