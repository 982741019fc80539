import fs from "node:fs";
import path from "node:path";
import { describe, expect } from "vitest";
import { addedLines, itIsTheVersionWrittenFor, itStillHolds } from "./canary";
import { POSTGRES_JS } from "./postgres-js";

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
