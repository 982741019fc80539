import fs from "node:fs";
import path from "node:path";
import { describe, expect } from "vitest";
import { itIsTheVersionWrittenFor, itStillHolds } from "./canary";
import { POSTGRES_JS } from "./postgres-js";

/** Each file the patch changes, with the lines it adds (the `+` lines of each hunk). */
function addedLines(patch: string): Map<string, string[]> {
  const files = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of patch.split("\n")) {
    if (line.startsWith("+++ b/")) files.set(line.slice("+++ b/".length), (current = []));
    else if (line.startsWith("+") && current && line.slice(1).trim() !== "") current.push(line.slice(1));
  }
  return files;
}

describe("postgres.js canary: the patch is applied", () => {
  itIsTheVersionWrittenFor(POSTGRES_JS);

  itStillHolds(POSTGRES_JS, "every line the patch adds is in node_modules/postgres", () => {
    const files = addedLines(fs.readFileSync(path.join(process.cwd(), POSTGRES_JS.patch), "utf8"));
    expect([...files.keys()].sort()).toEqual(
      ["cf/src/connection.js", "cjs/src/connection.js", "src/connection.js"].map(
        (file) => `node_modules/postgres/${file}`,
      ),
    );
    for (const [file, lines] of files) {
      const installed = fs.readFileSync(path.join(process.cwd(), file), "utf8").split("\n");
      const missing = lines.filter((line) => !installed.includes(line));
      expect(
        missing,
        `${file} lacks lines of ${POSTGRES_JS.patch}: run \`npx patch-package --patch-dir internals/patches\``,
      ).toEqual([]);
    }
  });
});
