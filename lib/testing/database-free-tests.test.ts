import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { databaseFreeTestFiles } from "./database-free-tests";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "database-free-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function write(files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
}

describe("databaseFreeTestFiles", () => {
  it("keeps every file whose imports reach db/, through aliases, relative paths, import() and cycles", () => {
    write({
      "db/client.ts": "export const getDb = 1;",
      "lib/pure.ts": 'import { x } from "./leaf";\nexport const pure = x;',
      "lib/leaf.ts": "export const x = 1;",
      "lib/uses-db.ts": 'export { getDb } from "@/db/client";',
      // a → b → a, and a → uses-db: b reaches the database only through the cycle.
      "lib/a.ts": 'import "./b";\nimport "./uses-db";',
      "lib/b.ts": 'import "./a";',
      "lib/pure.test.ts": 'import { pure } from "./pure";\nimport { it } from "vitest";',
      "lib/alias.test.ts": 'import { getDb } from "@/lib/uses-db";',
      "lib/dynamic.test.ts": 'it("x", async () => { await import("../db/client"); });',
      "lib/cycle-first.test.ts": 'import "./a";',
      "lib/via-cycle.test.ts": 'import "./b";',
      "lib/names-url.test.ts": "const url = process.env.DATABASE_URL;",
      "lib/spawns.test.ts": 'import { spawn } from "node:child_process";',
      "app/page.test.tsx": 'import { pure } from "@/lib/pure";',
    });
    expect(databaseFreeTestFiles(root, ["app", "lib", "db", "missing"]).sort()).toEqual([
      "app/page.test.tsx",
      "lib/pure.test.ts",
    ]);
  });
});
