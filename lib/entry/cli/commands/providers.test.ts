import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { auditTrail } from "@/lib/testing/management";
import { useSettings } from "@/lib/testing/settings";
import { cli } from "../testing";

const API_KEY = "re_cli_provider_test_key_0123456789";
const NEW_API_KEY = "re_cli_provider_rotated_key_9876543210";
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-cli-providers-"));
  fs.writeFileSync(path.join(dir, "api-key"), `${API_KEY}\n`);
  fs.writeFileSync(path.join(dir, "new-api-key"), NEW_API_KEY);
  useSettings({ PROVIDERS_ALLOW_PRIVATE: "true" });
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  useSettings({ PROVIDERS_ALLOW_PRIVATE: undefined });
});

describe("provider and route commands", () => {
  it("add connections (secrets never printed), route by family, dry-run, refusals name the field; audited as CLI", async () => {
    const ws = await createTestWorkspace();
    const workspace = ["--workspace", ws.workspace.id];
    const sim = await cli(["provider", "add", "sim", ...workspace, "--kind", "simulator"]);
    expect([sim.code, sim.stdout]).toEqual([0, expect.stringMatching(/Added connection sim \(pcon_\w+, simulator\)/)]);
    const resend = await cli([
      "provider",
      "add",
      "mail-eu",
      ...workspace,
      "--kind",
      "resend",
      "--api-key-file",
      path.join(dir, "api-key"),
      "--rate-per-second",
      "10",
      "--json",
    ]);
    expect(resend.code).toBe(0);
    expect(resend.stdout).not.toContain(API_KEY);
    const connection = resend.json();
    expect(connection).toMatchObject({ name: "mail-eu", kind: "resend", secretsSet: ["apiKey"], ratePerSecond: 10 });
    const smtp = await cli([
      "provider",
      "add",
      "relay",
      ...workspace,
      "--kind",
      "smtp",
      "--url",
      "smtp://127.0.0.1:2525",
      "--user",
      "u",
      "--password",
      "smtp-secret-pw",
    ]);
    expect([smtp.code, smtp.stdout]).toEqual([0, expect.not.stringContaining("smtp-secret-pw")]);

    const listed = await cli(["provider", "list", ...workspace]);
    expect(listed.stdout).toContain(`${connection.id}  resend     mail-eu  secrets set: apiKey  10/s`);
    expect(listed.stdout).toMatch(/simulator {2}sim/);
    expect(listed.stdout).toContain("url=smtp://127.0.0.1:2525  user=u  secrets set: password");
    expect(listed.stdout).not.toMatch(new RegExp(`${API_KEY}|smtp-secret-pw`));

    const rule = await cli([
      "route",
      "add",
      ...workspace,
      "--connections",
      "mail-eu,sim",
      "--families",
      "microsoft",
      "--name",
      "Microsoft",
      "--json",
    ]);
    expect(rule.code).toBe(0);
    const created = rule.json();
    expect(created).toMatchObject({ match: { mailboxFamilies: ["microsoft"] }, connections: ["mail-eu", "sim"] });
    expect((await cli(["route", "list", ...workspace])).stdout).toContain(
      `${created.id}  #0  enabled   Microsoft: families microsoft → mail-eu, then sim`,
    );

    const dryRun = await cli(["route", "dry-run", ...workspace, "--from", "hi@example.com", "--to", "a@outlook.com"]);
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout).toContain("Rule Microsoft: mail-eu, then sim.");
    expect(dryRun.stdout).toContain(`primary   mail-eu (resend, ${connection.id})  circuit closed`);
    expect(dryRun.stdout).toContain("recipients outlook.com (microsoft)");
    const other = await cli(["route", "dry-run", ...workspace, "--from", "hi@example.com", "--to", "b@example.org"]);
    expect(other.stdout).toContain("No rule matches: default.");

    const badName = await cli(["provider", "add", "Bad Name", ...workspace, "--kind", "simulator", "--json"]);
    expect(badName.code).toBe(1);
    expect(JSON.parse(badName.stderr).error).toMatchObject({ param: "name", message: expect.stringContaining("name") });
    const badFamily = await cli(["route", "add", ...workspace, "--connections", "sim", "--families", "aol"]);
    expect([badFamily.code, badFamily.stderr]).toEqual([1, expect.stringMatching(/mailboxFamilies.*\(--families\)/)]);
    const wrongField = await cli(["provider", "add", "x", ...workspace, "--kind", "simulator", "--url", "smtp://a"]);
    expect([wrongField.code, wrongField.stderr]).toEqual([1, expect.stringContaining("url is not a setting")]);
    const inUse = await cli(["provider", "remove", "mail-eu", ...workspace]);
    expect([inUse.code, inUse.stderr]).toEqual([1, expect.stringContaining("Routing rules still name mail-eu")]);

    const rotated = await cli([
      "provider",
      "set",
      "mail-eu",
      ...workspace,
      "--api-key-file",
      path.join(dir, "new-api-key"),
    ]);
    expect([rotated.code, rotated.stdout]).toEqual([0, expect.stringContaining("new apiKey: used from the next")]);
    expect(rotated.stdout).not.toContain(NEW_API_KEY);
    const changed = await cli(["route", "set", created.id, ...workspace, "--families", "any", "--enabled", "off"]);
    expect(changed.stdout).toContain(`${created.id}  #0  DISABLED  Microsoft: every message → mail-eu, then sim`);

    expect((await cli(["route", "add", ...workspace])).code).toBe(2);
    expect((await cli(["route", "set", created.id, ...workspace])).code).toBe(2);
    const both = ["--api-key", "k", "--api-key-file", path.join(dir, "api-key")];
    expect((await cli(["provider", "add", "y", ...workspace, "--kind", "resend", ...both])).code).toBe(2);
    expect((await cli(["route", "remove", created.id, ...workspace])).code).toBe(0);
    expect((await cli(["provider", "remove", connection.id, ...workspace])).code).toBe(0);
    expect(
      (await cli(["provider", "list", ...workspace, "--json"])).json().map((c: { name: string }) => c.name),
    ).toEqual(["relay", "sim"]);

    const trail = await auditTrail(ws.workspace.id, [
      "provider_connection.create",
      "provider_connection.update",
      "provider_connection.delete",
      "routing_rule.create",
      "routing_rule.update",
      "routing_rule.delete",
    ]);
    expect(trail.map((e) => [e.action, e.actorLabel])).toEqual([
      ["provider_connection.create", "CLI"],
      ["provider_connection.create", "CLI"],
      ["provider_connection.create", "CLI"],
      ["routing_rule.create", "CLI"],
      ["provider_connection.update", "CLI"],
      ["routing_rule.update", "CLI"],
      ["routing_rule.delete", "CLI"],
      ["provider_connection.delete", "CLI"],
    ]);
    expect(JSON.stringify(trail)).not.toMatch(new RegExp(`${API_KEY}|${NEW_API_KEY}|smtp-secret-pw`));
  });
});
