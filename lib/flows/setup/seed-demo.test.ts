import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDbHandle } from "@/db/client";
import { domains, workspaces } from "@/db/schema/index";
import { authenticateApiKey } from "@/lib/domain/api-keys/authenticate-api-key";
import { basicAuthHeader } from "@/lib/domain/api-keys/create-api-key";
import { randomBase62 } from "@/lib/foundation/ids";
import { renderTemplate } from "@/lib/domain/templates/render.shared";
import { createWorkspace } from "@/lib/domain/workspaces/create-workspace";
import { DEMO_WORKSPACE_NAME, describeDemo, parseSeedApiKey, seedDemo } from "./seed-demo";

const uniqueName = () => `Demo ${randomBase62(8)}`;
const randomSeedKey = () => `key_${randomBase62(16)}:${randomBase62(40)}`;

async function workspacesNamed(name: string) {
  const { db } = await getDbHandle();
  const [row] = await db.select({ value: count() }).from(workspaces).where(eq(workspaces.name, name));
  return row.value;
}

describe("seedDemo", () => {
  // First in the file: on PGlite each test file starts with an empty database (on the shared
  // PostgreSQL database other files' workspaces exist, so the empty case is only checkable here).
  it("with onlyIfEmpty seeds an empty database, and skips one that has any workspace", async () => {
    const { db, driver } = await getDbHandle();
    if (driver === "pglite") {
      const [before] = await db.select({ value: count() }).from(workspaces);
      expect(before.value).toBe(0);
      const result = await seedDemo({ onlyIfEmpty: true });
      expect(result.status).toBe("created");
      if (result.status === "created") expect(result.workspace.name).toBe(DEMO_WORKSPACE_NAME);
    }
    await createWorkspace({ name: "Someone else's" });
    const name = uniqueName();
    expect(await seedDemo({ onlyIfEmpty: true, name })).toEqual({ status: "skipped" });
    expect(await workspacesNamed(name)).toBe(0);
  });

  it("creates a live-mode workspace, a verified example.com, a Liquid template with a link and a working key", async () => {
    const name = uniqueName();
    const result = await seedDemo({ name });
    if (result.status !== "created") throw new Error(`expected created, got ${result.status}`);
    expect(result.workspace).toMatchObject({ name, testMode: false });
    expect(result.domain).toMatchObject({ name: "example.com", status: "VERIFIED", workspaceId: result.workspace.id });
    expect(result.template.fromAddress).toBe("Demo <hello@example.com>");
    const rendered = renderTemplate(result.template, { name: "Ada" });
    expect(rendered.subject).toBe("Welcome, Ada!");
    expect(rendered.bodyHtml).toContain('<a href="https://example.com/getting-started">');
    expect(renderTemplate(result.template, {}).subject).toBe("Welcome, friend!");
    const principal = await authenticateApiKey(basicAuthHeader(result.key.id, result.key.password));
    expect(principal.workspaceId).toBe(result.workspace.id);
  });

  it("is idempotent: a second run reports the existing demo and creates nothing", async () => {
    const name = uniqueName();
    const first = await seedDemo({ name });
    const second = await seedDemo({ name, apiKey: randomSeedKey() });
    expect(first.status).toBe("created");
    expect(second.status).toBe("exists");
    if (first.status === "created" && second.status === "exists") expect(second.workspace.id).toBe(first.workspace.id);
    expect(await workspacesNamed(name)).toBe(1);
  });

  it("uses the SEED_API_KEY pair for the demo key", async () => {
    const seedKey = randomSeedKey();
    const [username, password] = seedKey.split(":");
    const result = await seedDemo({ name: uniqueName(), apiKey: seedKey });
    if (result.status !== "created") throw new Error(`expected created, got ${result.status}`);
    expect(result.key).toMatchObject({ id: username, password });
    const principal = await authenticateApiKey(basicAuthHeader(username, password));
    expect(principal.workspaceId).toBe(result.workspace.id);
  });

  it("runs in one transaction: a failure part-way leaves no half demo", async () => {
    const seedKey = randomSeedKey();
    await seedDemo({ name: uniqueName(), apiKey: seedKey });
    // The same key username again: the key insert (the last step) fails on its primary key.
    const name = uniqueName();
    await expect(seedDemo({ name, apiKey: seedKey })).rejects.toThrow();
    expect(await workspacesNamed(name)).toBe(0);
    const { db } = await getDbHandle();
    const orphans = await db
      .select()
      .from(domains)
      .innerJoin(workspaces, eq(domains.workspaceId, workspaces.id))
      .where(eq(workspaces.name, name));
    expect(orphans).toHaveLength(0);
  });

  it("refuses a malformed SEED_API_KEY", () => {
    expect(() => parseSeedApiKey("key_abc:short")).toThrow(/SEED_API_KEY/);
    expect(() => parseSeedApiKey(`nokey_${randomBase62(16)}:${randomBase62(40)}`)).toThrow(/SEED_API_KEY/);
    expect(() => parseSeedApiKey(`key_${randomBase62(16)}${randomBase62(40)}`)).toThrow(/SEED_API_KEY/);
    const valid = randomSeedKey();
    expect(parseSeedApiKey(valid)).toEqual({ username: valid.split(":")[0], password: valid.split(":")[1] });
  });
});

describe("describeDemo", () => {
  it("prints the dashboard, the key, test mode OFF and a curl for POST /api/v1/email_messages", async () => {
    const seedKey = randomSeedKey();
    const result = await seedDemo({ name: uniqueName(), apiKey: seedKey });
    if (result.status !== "created") throw new Error("expected created");
    const text = describeDemo(result, { appUrl: "http://localhost:4321", deliveryProvider: "local" }).join("\n");
    expect(text).toContain("Dashboard:    http://localhost:4321/");
    expect(text).toContain(`API username: ${result.key.id}`);
    expect(text).toContain(`API password: ${result.key.password}`);
    expect(text).toContain(`export KEY_USERNAME='${result.key.id}' KEY_PASSWORD='${result.key.password}'`);
    expect(text).toContain("test mode OFF");
    expect(text).toContain("curl -sS -X POST 'http://localhost:4321/api/v1/email_messages'");
    expect(text).toContain(`-u '${seedKey}'`);
    expect(text).toContain(`"templateId":"${result.template.id}"`);

    const again = await seedDemo({ name: result.workspace.name });
    const existing = describeDemo(again, { appUrl: "http://localhost:4321", deliveryProvider: "local" }).join("\n");
    expect(existing).toContain("already exists");
    expect(existing).not.toContain(result.key.password);
    expect(describeDemo({ status: "skipped" }, { appUrl: "x", deliveryProvider: "local" })).toEqual([]);
  });
});
