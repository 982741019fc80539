import fs from "node:fs";
import path from "node:path";
import { describe, expect } from "vitest";
import { itIsTheVersionWrittenFor, itStillHolds, type Reach } from "./canary";

// A plain .mjs module without type declarations (scripts/assemble-artefact.mjs imports it): imported by path.
const { NEXT_STANDALONE, NEXT_FILES_THE_TRACE_MISSES } = (await import(
  path.join(import.meta.dirname, "next-standalone.mjs")
)) as { NEXT_STANDALONE: Reach; NEXT_FILES_THE_TRACE_MISSES: string[] };
const next = path.join(process.cwd(), "node_modules", "next");

describe("next canary: the files the artefact adds to Next.js's standalone output", () => {
  itIsTheVersionWrittenFor(NEXT_STANDALONE);

  itStillHolds(NEXT_STANDALONE, "every listed path exists in the installed next", () => {
    for (const file of NEXT_FILES_THE_TRACE_MISSES) expect(fs.existsSync(path.join(next, file)), file).toBe(true);
  });

  itStillHolds(
    NEXT_STANDALONE,
    "the require hook installed before next.config loads resolves only listed files",
    () => {
      const source = fs.readFileSync(path.join(next, "dist", "server", "config-utils.js"), "utf8");
      const resolved = [...source.matchAll(/'next\/(dist\/compiled\/[^']+)'/g)].map((match) => match[1]);
      expect(resolved.length).toBeGreaterThan(10);
      for (const file of resolved)
        expect(
          NEXT_FILES_THE_TRACE_MISSES.some((listed) => file === listed || file.startsWith(`${listed}/`)),
          file,
        ).toBe(true);
    },
  );
});
