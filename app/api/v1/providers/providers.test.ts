import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { providerConnections } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import { apiAuditEntries, expectRefusal, scopedAuthorization } from "@/lib/testing/management";
import { useSettings } from "@/lib/testing/settings";
import { DELETE as remove, PATCH as patch } from "./[id]/handlers";
import { POST as create } from "./handlers";

/** /v1/providers and /v1/routing_rules (docs/api.md#providers-and-routing). */
const saved = { PROVIDERS_ALLOW_PRIVATE: process.env.PROVIDERS_ALLOW_PRIVATE };
beforeAll(() => useSettings({ PROVIDERS_ALLOW_PRIVATE: undefined }));
afterAll(() => useSettings(saved));

async function setup() {
  const { workspace } = await createTestWorkspace();
  const authorization = await scopedAuthorization(workspace.id, ["providers:write"]);
  return { ws: workspace.id, authorization };
}

const resend = { name: "eu-resend", kind: "resend", apiKey: "re_secret_0123456789", webhookSecret: "whsec_c2VjcmV0" };

describe("/v1/providers", () => {
  it("creates, lists, reads, updates (rotating a secret) and deletes; secrets never returned, audited by name only", async () => {
    const { ws, authorization } = await setup();
    const made = await callApi("/api/v1/providers", { authorization, body: { ...resend, ratePerSecond: 10 } });
    expect(made.status).toBe(201);
    const connection = made.json.data;
    expect(connection).toEqual({
      id: expect.stringMatching(/^pcon_[0-9A-Za-z]{16}$/),
      type: "ProviderConnection",
      name: "eu-resend",
      kind: "resend",
      settings: {},
      secretsSet: ["apiKey", "webhookSecret"],
      ratePerSecond: 10,
      concurrency: null,
      eventsPath: `/api/provider-events/resend/${connection.id}`,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(made.text).not.toContain("re_secret_0123456789");
    const [row] = await (
      await getDb()
    )
      .select()
      .from(providerConnections)
      .where(eq(providerConnections.id, connection.id));
    expect(row.secrets).not.toContain("re_secret");

    const listed = await callApi("/api/v1/providers", { authorization });
    expect(listed.json).toMatchObject({ meta: { count: 1 }, data: [{ id: connection.id }] });
    expect((await callApi(`/api/v1/providers/${connection.id}`, { authorization })).json.data).toEqual(connection);

    const changed = await callApi(`/api/v1/providers/${connection.id}`, {
      authorization,
      method: "PATCH",
      body: { apiKey: "re_rotated_0123456789", concurrency: 3 },
    });
    expect(changed.status).toBe(200);
    expect(changed.json.data).toMatchObject({ secretsSet: ["apiKey", "webhookSecret"], concurrency: 3 });
    expect(changed.text).not.toContain("re_rotated");

    const gone = await callApi(`/api/v1/providers/${connection.id}`, { authorization, method: "DELETE" });
    expect(gone.json.data).toEqual({ id: connection.id, deleted: true });
    expect((await callApi(`/api/v1/providers/${connection.id}`, { authorization })).status).toBe(404);

    const audit = await apiAuditEntries(ws);
    expect(audit.map((entry) => entry.action)).toEqual([
      "provider_connection.create",
      "provider_connection.update",
      "provider_connection.delete",
    ]);
    expect(JSON.stringify(audit)).not.toMatch(/re_secret|re_rotated|whsec_/);
    expect(audit[1].after).toMatchObject({ writeOnlyFieldsRotated: ["apiKey"], concurrency: 3 });
  });

  it("refuses bad input naming the field, and writes nothing", async () => {
    const { ws, authorization } = await setup();
    const path = "/api/v1/providers";
    const refuse = (body: unknown, param: string, status = 400) =>
      expectRefusal(ws, create, path, { authorization, body }, { status, param });
    await refuse({ ...resend, name: "Bad Name" }, "name");
    await refuse({ ...resend, name: "default" }, "name");
    await refuse({ name: "r", kind: "resend" }, "apiKey");
    await refuse({ name: "s", kind: "smtp" }, "url");
    await refuse({ name: "s", kind: "smtp", url: "http://relay.example.com" }, "url");
    await refuse({ name: "s", kind: "smtp", url: "smtp://user:pw@relay.example.com" }, "url");
    await refuse({ name: "s", kind: "smtp", url: "smtp://127.0.0.1:2525" }, "url");
    await refuse({ name: "s", kind: "smtp", url: "smtp://169.254.169.254:25" }, "url");
    await refuse({ name: "s", kind: "smtp", url: "smtp://relay.example.com", region: "eu-west-1" }, "region");
    await refuse(
      { name: "x", kind: "ses", region: "eu-west-1", accessKeyId: "AKIAABCDEFGHIJKLMNOP" },
      "secretAccessKey",
    );
    await refuse({ name: "x", kind: "ses", region: "nowhere" }, "region");
    await refuse({ name: "x", kind: "simulator", ratePerSecond: 0 }, "ratePerSecond");
    await refuse({ name: "x", kind: "simulator", extra: true }, "extra");
    await callApi(path, { authorization, body: { name: "sim", kind: "simulator" } });
    await refuse({ name: "sim", kind: "simulator" }, "name", 409);
    const [sim] = (await callApi(path, { authorization })).json.data;
    await expectRefusal(
      ws,
      patch,
      `${path}/${sim.id}`,
      { authorization, method: "PATCH", body: { kind: "local" } },
      {
        status: 400,
        param: "kind",
      },
    );
  });

  it("another workspace's connection is a 404; a key without providers:write is a 403", async () => {
    const one = await setup();
    const other = await setup();
    const made = await callApi("/api/v1/providers", { authorization: one.authorization, body: resend });
    const id = made.json.data.id;
    expect((await callApi(`/api/v1/providers/${id}`, { authorization: other.authorization })).status).toBe(404);
    await expectRefusal(
      other.ws,
      remove,
      `/api/v1/providers/${id}`,
      { authorization: other.authorization, method: "DELETE" },
      {
        status: 404,
        param: "id",
      },
    );
    const sender = await scopedAuthorization(one.ws, ["emails:send"]);
    expect((await callApi("/api/v1/providers", { authorization: sender })).status).toBe(403);
  });
});

describe("/v1/routing_rules", () => {
  it("creates in order, refuses unknown connections and ids, renames follow, dry-runs, and guards deletion", async () => {
    const { ws, authorization } = await setup();
    const sim = (await callApi("/api/v1/providers", { authorization, body: { name: "sim-a", kind: "simulator" } })).json
      .data;
    const first = await callApi("/api/v1/routing_rules", {
      authorization,
      body: { name: "Microsoft", match: { mailboxFamilies: ["microsoft"] }, connections: ["sim-a", "default"] },
    });
    expect(first.status).toBe(201);
    expect(first.json.data).toMatchObject({ position: 0, connections: ["sim-a", "default"], enabled: true });
    const second = await callApi("/api/v1/routing_rules", {
      authorization,
      body: { match: { streams: ["bulk"], recipientDomains: ["*.Example.ORG"] }, connections: ["default"] },
    });
    expect(second.json.data).toMatchObject({ position: 1, match: { recipientDomains: ["*.example.org"] } });

    const rulesPath = "/api/v1/routing_rules";
    const refuseDryRun = (path: string, body: unknown, param: string) =>
      expectRefusal(ws, null, path, { authorization, body }, { status: 400, param });
    const refuse = (body: unknown, param: string) =>
      expectRefusal(ws, null, rulesPath, { authorization, body }, { status: 400, param });
    await refuse({ connections: ["nope"] }, "connections");
    await refuse({ connections: ["default", "default"] }, "connections");
    await refuse({ connections: [] }, "connections");
    await refuse({ connections: ["default"], match: { mailboxFamilies: ["hotmail"] } }, "match.mailboxFamilies[0]");
    await refuse({ connections: ["default"], match: { templateIds: ["tpl_0000000000000000"] } }, "match.templateIds");
    await refuse({ connections: ["default"], match: { colour: "red" } }, "match.colour");

    await refuseDryRun(`${rulesPath}/dry_run`, { from: "<a@b>\r\n<c@d>", to: "ada@example.org" }, "from");
    await refuseDryRun(`${rulesPath}/dry_run`, { from: "hello@example.com", to: "not an address" }, "to");
    const dry = await callApi(`${rulesPath}/dry_run`, {
      authorization,
      body: { from: "Acme <hello@example.com>", to: "ada@outlook.com" },
    });
    expect(dry.status).toBe(200);
    expect(dry.json.data).toMatchObject({
      rule: { id: first.json.data.id, name: "Microsoft" },
      connections: [
        { name: "sim-a", role: "primary", circuit: "closed", kind: "simulator" },
        { name: "default", role: "fallback", circuit: "closed" },
      ],
      facts: { stream: "transactional", recipientDomains: [{ domain: "outlook.com", mailboxFamily: "microsoft" }] },
      summary: "Rule Microsoft: sim-a, then default.",
    });
    const bulk = await callApi(`${rulesPath}/dry_run`, {
      authorization,
      body: { from: "hello@example.com", to: ["a@eu.example.org"], tags: ["stream:bulk"] },
    });
    expect(bulk.json.data.rule.id).toBe(second.json.data.id);
    const none = await callApi(`${rulesPath}/dry_run`, {
      authorization,
      body: { from: "hello@example.com", to: "a@b.test" },
    });
    expect(none.json.data).toMatchObject({ rule: null, summary: "No rule matches: default." });

    const renamed = await callApi(`/api/v1/providers/${sim.id}`, {
      authorization,
      method: "PATCH",
      body: { name: "sim-b" },
    });
    expect(renamed.json.data.name).toBe("sim-b");
    expect((await callApi(`${rulesPath}/${first.json.data.id}`, { authorization })).json.data.connections).toEqual([
      "sim-b",
      "default",
    ]);
    const blocked = await callApi(`/api/v1/providers/${sim.id}`, { authorization, method: "DELETE" });
    expect(blocked.status).toBe(409);
    expect(blocked.json.error.message).toContain("Routing rules still name sim-b (Microsoft)");

    await callApi(`${rulesPath}/${first.json.data.id}`, { authorization, method: "PATCH", body: { enabled: false } });
    const skipped = await callApi(`${rulesPath}/dry_run`, {
      authorization,
      body: { from: "hello@example.com", to: "a@outlook.com" },
    });
    expect(skipped.json.data.rule).toBeNull();
    expect((await callApi(`${rulesPath}/${first.json.data.id}`, { authorization, method: "DELETE" })).status).toBe(200);
    expect((await callApi(`/api/v1/providers/${sim.id}`, { authorization, method: "DELETE" })).status).toBe(200);
    expect((await apiAuditEntries(ws)).map((entry) => entry.action)).toEqual([
      "provider_connection.create",
      "routing_rule.create",
      "routing_rule.create",
      "provider_connection.update",
      "routing_rule.update",
      "routing_rule.delete",
      "provider_connection.delete",
    ]);
  });
});
