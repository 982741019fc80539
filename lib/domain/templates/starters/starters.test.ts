import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderTemplate } from "../render.shared";
import { missingVariables } from "../variables.shared";
import { STARTERS } from "./generated";
import { GENERATED_MODULE_PATH, generatedModuleSource, renderStarters, STARTER_SOURCES } from "./render-starters";

describe("react-email starters", () => {
  it("are committed exactly as `npm run build:starters` renders them (they cannot drift)", async () => {
    const committed = readFileSync(path.join(process.cwd(), GENERATED_MODULE_PATH), "utf8");
    expect(committed).toBe(generatedModuleSource(await renderStarters()));
    expect(STARTERS.map((starter) => starter.key)).toEqual([
      "welcome",
      "magic-link",
      "password-reset",
      "receipt",
      "shipping-update",
    ]);
    expect(new Set(STARTER_SOURCES.map((source) => source.key)).size).toBe(STARTER_SOURCES.length);
  });

  it.each(STARTERS.map((starter) => [starter.key, starter] as const))(
    "%s is indented for the code editor, every Liquid tag on one line",
    (_key, starter) => {
      const lines = starter.bodyHtml.split("\n");
      expect(lines.length).toBeGreaterThan(30);
      expect(lines.filter((line) => line.startsWith("    <")).length).toBeGreaterThan(0);
      expect(starter.bodyHtml.match(/\{\{[^}]*\n|\{%[^%]*\n/g)).toBeNull();
    },
  );

  it.each(STARTERS.map((starter) => [starter.key, starter] as const))(
    "%s renders with its sample data in strict mode",
    (_key, starter) => {
      expect(missingVariables([starter.subject, starter.bodyHtml], starter.variables)).toEqual([]);
      const rendered = renderTemplate(starter, starter.variables, { strict: true });
      expect(rendered.subject).not.toMatch(/\{\{|\{%/);
      expect(rendered.bodyHtml).not.toMatch(/\{\{|\{%|&quot;/);
      expect(rendered.bodyText).toContain("Acme");
      expect(rendered.bodyHtml).toContain("1 Market Street, Springfield");
      expect(rendered.bodyHtml).toContain('<html dir="ltr" lang="en">');
      const arabic = renderTemplate(starter, starter.variables, {
        strict: true,
        locale: { locale: "ar", messages: {}, fallbackMessages: {} },
      });
      expect(arabic.bodyHtml).toContain('<html dir="rtl" lang="ar">');
    },
  );

  it("expands the receipt's line-item loop, one row per item, with currency amounts", () => {
    const starter = STARTERS.find((candidate) => candidate.key === "receipt")!;
    expect(starter.bodyHtml).toContain("{% for item in items %}");
    expect(starter.bodyHtml).toContain('{{ items | size | pluralize: "item", "items" }}');
    const rendered = renderTemplate(starter, starter.variables, { strict: true });
    expect(rendered.subject).toBe("Your Acme receipt for order A-1042");
    expect(rendered.bodyHtml).toContain("Notebook, dotted × 2");
    expect(rendered.bodyHtml).toContain("$25.00");
    expect(rendered.bodyHtml).toContain("Fountain pen × 1");
    expect(rendered.bodyHtml).toContain("Ink cartridges (6) × 1");
    expect(rendered.bodyHtml).toContain("$57.24");
    // The starter HTML is formatted for the editor, so a long sentence may wrap: compare it with the spaces a browser would show.
    expect(rendered.bodyHtml.replace(/\s+/g, " ")).toContain("3 items, paid with Visa ending in 4242");
    expect(rendered.bodyHtml.match(/border-bottom:1px solid #e2e8f0/g)).toHaveLength(3);
    expect(rendered.bodyText).toMatch(/Fountain pen × 1\s+\$24\.00/);
  });

  it("expand the shipping update's parcel list and link its tracking page", () => {
    const starter = STARTERS.find((candidate) => candidate.key === "shipping-update")!;
    const rendered = renderTemplate(starter, starter.variables, { strict: true });
    expect(rendered.bodyHtml).toContain("2 × Notebook, dotted");
    expect(rendered.bodyHtml).toContain("1 × Fountain pen");
    expect(rendered.bodyHtml).toContain('href="https://track.example.com/JD014600006281230704"');
  });
});
