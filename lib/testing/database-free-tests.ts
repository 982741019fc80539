import fs from "node:fs";
import path from "node:path";

/**
 * The test files that cannot touch a database: none of the modules they import, statically or through
 * `import("…")`, is under db/, and the file itself neither names DATABASE_URL nor starts a process.
 * The PostgreSQL phase of CI (`DATABASE_URL=… vitest run`) skips them: they prove the same on either
 * database, and the PGlite phase runs them. Erring is only ever towards running a file again: an
 * import the scan cannot follow (a computed path) is a module it does not see, so a file whose database
 * access hides behind one would be skipped; such a file names DATABASE_URL or imports a helper that does.
 */
const TEST_FILE = /\.test\.tsx?$/;
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g;
const NEEDS_SERVER = /DATABASE_URL|node:child_process|worker-process/;
const EXTENSIONS = ["", ".ts", ".tsx", ".mjs", ".js", "/index.ts", "/index.tsx"];

export function databaseFreeTestFiles(root: string, folders: readonly string[]): string[] {
  // Known answers: a module reaching db/ is found on any path to it; one that does not only once a whole
  // search from a test file ended without finding db/ (inside a cycle, a partial answer would be wrong).
  const reaching = new Set<string>();
  const clean = new Set<string>();
  const visit = (file: string, seen: Set<string>): boolean => {
    if (reaching.has(file)) return true;
    if (clean.has(file) || seen.has(file)) return false;
    seen.add(file);
    const inDb = path.relative(root, file).startsWith(`db${path.sep}`);
    if (inDb || importsOf(root, file, fs.readFileSync(file, "utf8")).some((target) => visit(target, seen))) {
      reaching.add(file);
      return true;
    }
    return false;
  };
  const databaseFree = (file: string) => {
    const seen = new Set<string>();
    if (visit(file, seen)) return false;
    seen.forEach((module) => clean.add(module));
    return true;
  };
  return folders
    .flatMap((folder) => testFiles(path.join(root, folder)))
    .filter((file) => !NEEDS_SERVER.test(fs.readFileSync(file, "utf8")) && databaseFree(file))
    .map((file) => path.relative(root, file).split(path.sep).join("/"));
}

function importsOf(root: string, file: string, text: string): string[] {
  const targets: string[] = [];
  for (const [, specifier] of text.matchAll(IMPORT)) {
    const base = specifier.startsWith("@/")
      ? path.join(root, specifier.slice(2))
      : specifier.startsWith(".")
        ? path.resolve(path.dirname(file), specifier)
        : undefined; // a package: never the project's database
    const resolved = base && EXTENSIONS.map((ext) => base + ext).find((candidate) => isFile(candidate));
    if (resolved) targets.push(resolved);
  }
  return targets;
}

function testFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(full);
    return TEST_FILE.test(entry.name) ? [full] : [];
  });
}

function isFile(candidate: string): boolean {
  return fs.statSync(candidate, { throwIfNoEntry: false })?.isFile() ?? false;
}
