import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { auditTrail } from "@/lib/testing/management";
import { cli } from "../testing";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-cli-locales-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("template locales import and export", () => {
  it("imports a translators' file as the next version (audited as the CLI) and exports it back", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate({ bodyHtml: '<p>{{ "cart.items" | t: count: n }}</p>' });
    const fr = { "cart.items": "{count, plural, one {# article} other {# articles}}" };
    const source = path.join(tmp, "fr.json");
    fs.writeFileSync(source, JSON.stringify(fr));
    const which = ["--workspace", ws.workspace.id, "--template", template.id, "--locale"];

    const imported = await cli(["template", "locales", "import", ...which, "fr_FR", "--file", source, "--json"]);
    expect(imported).toMatchObject({ code: 0, stderr: "" });
    expect(imported.json()).toEqual({ templateId: template.id, version: 2, keys: 1 });
    const [entry] = await auditTrail(ws.workspace.id, ["template.messages_import"]);
    expect(entry).toMatchObject({
      actorType: "SYSTEM",
      actorLabel: "CLI",
      after: { locale: "fr-FR", messageCount: 1 },
    });

    const printed = await cli(["template", "locales", "export", ...which, "fr-fr"]);
    expect([printed.code, JSON.parse(printed.stdout)]).toEqual([0, fr]);
    const out = path.join(tmp, "out.json");
    const written = await cli(["template", "locales", "export", ...which, "fr-FR", "--out", out]);
    expect(written.stdout).toMatch(/Wrote 1 keys of fr-FR/);
    expect(JSON.parse(fs.readFileSync(out, "utf8"))).toEqual(fr);

    // A table lacking a key the template uses is refused, naming the keys; a bad file is a usage error.
    fs.writeFileSync(source, JSON.stringify({ other: "x" }));
    const refused = await cli(["template", "locales", "import", ...which, "de", "--file", source]);
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringMatching(/"cart.items"/)]);
    fs.writeFileSync(source, "{ not json");
    expect((await cli(["template", "locales", "import", ...which, "de", "--file", source])).code).toBe(2);
  });
});
