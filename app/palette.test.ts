import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * Dark mode is app/palette.css remapping the Tailwind colour scales the components use. A scale it
 * does not remap keeps its light values in dark mode (a pale badge on a dark card), so every scale a
 * class names must be remapped, and restored under `.fixed-palette`.
 */

const UTILITY =
  /\b(?:bg|text|border(?:-[trblxy])?|ring|divide|outline|fill|stroke|from|via|to|placeholder|decoration|accent|caret|shadow)-([a-z]+)-(?:50|[1-9]00|950)\b/g;

function sources(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".tsx") && !file.endsWith(".test.tsx"))
    .map((file) => path.join(folder, file));
}

function scalesUsed(): Set<string> {
  const scales = new Set<string>();
  for (const file of [...sources("app"), ...sources("components")]) {
    for (const match of readFileSync(file, "utf8").matchAll(UTILITY)) scales.add(match[1]);
  }
  return scales;
}

/** The scales a CSS block sets a full 50–950 range of (a shade set again, as ::backdrop does, counts once). */
function scalesIn(block: string): Set<string> {
  const shades = new Map<string, Set<string>>();
  for (const match of block.matchAll(/--color-([a-z]+)-(50|[1-9]00|950):/g)) {
    shades.set(match[1], (shades.get(match[1]) ?? new Set()).add(match[2]));
  }
  return new Set([...shades].filter(([, set]) => set.size === 11).map(([scale]) => scale));
}

describe("the dark palette", () => {
  const css = readFileSync("app/palette.css", "utf8");
  const [dark, fixed] = css.split(".fixed-palette {");

  it("remaps every colour scale the dashboard's classes use, and restores it under .fixed-palette", () => {
    const used = scalesUsed();
    expect(used.has("slate"), "the scan finds the dashboard's classes").toBe(true);
    const remapped = scalesIn(dark);
    const restored = scalesIn(fixed);
    expect(
      [...used].filter((scale) => !remapped.has(scale)),
      "not remapped in dark mode",
    ).toEqual([]);
    expect(
      [...used].filter((scale) => !restored.has(scale)),
      "not restored by .fixed-palette",
    ).toEqual([]);
  });

  it("turns the page dark and the text light: white becomes a surface darker than slate-900's new value", () => {
    const lightness = (name: string, block: string) =>
      Number(new RegExp(`--color-${name}: oklch\\(([\\d.]+)%`).exec(block)?.[1]);
    expect(lightness("white", dark)).toBeLessThan(30);
    expect(lightness("slate-50", dark)).toBeLessThan(lightness("white", dark));
    expect(lightness("slate-900", dark)).toBeGreaterThan(90);
  });
});
