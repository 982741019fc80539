import { describe, expect, it } from "vitest";
import { updateTemplate } from "@/lib/domain/templates/update-template";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { auditTrail, scopedAuthorization, withFailingAuditWrites } from "@/lib/testing/management";
import * as scenario from "./[id]/scenarios/[scenarioId]/handlers";
import * as scenarios from "./[id]/scenarios/handlers";
import * as restore from "./[id]/versions/[version]/restore/handlers";
import * as version from "./[id]/versions/[version]/handlers";
import * as versions from "./[id]/versions/handlers";

async function withHistory() {
  const ws = await createTestWorkspace();
  const template = await ws.createTemplate({ name: "Welcome", bodyHtml: "<p>v1</p>" });
  await updateTemplate({
    workspaceId: ws.workspace.id,
    templateId: template.id,
    content: { name: "Welcome", subject: "Hi", bodyHtml: "<p>v2</p>" },
    userId: null,
  });
  return { ws, template };
}

const at = (id: string, v: string) => ({ id, version: v });
const listVersions = (authorization: string, id: string) =>
  callRoute(versions.GET, `/api/v1/templates/${id}/versions`, { authorization, params: { id } });
const getVersion = (authorization: string, id: string, v: string) =>
  callRoute(version.GET, `/api/v1/templates/${id}/versions/${v}`, { authorization, params: at(id, v) });
const restoreVersion = (authorization: string, id: string, v: string, headers: Record<string, string> = {}) =>
  callRoute(restore.POST, `/api/v1/templates/${id}/versions/${v}/restore`, {
    method: "POST",
    authorization,
    params: at(id, v),
    headers,
  });

describe("template versions under /v1", () => {
  it("lists the history newest first, gets a version's content, restores it as the next version (audited)", async () => {
    const { ws, template } = await withHistory();
    const listed = await listVersions(ws.authorization, template.id);
    expect(listed.status).toBe(200);
    expect(listed.json.meta).toEqual({ count: 2, currentVersion: 2 });
    expect(listed.json.data.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(listed.json.data[1]).toMatchObject({
      type: "TemplateVersion",
      templateId: template.id,
      restoredFromVersion: null,
      author: null,
    });
    const first = await getVersion(ws.authorization, template.id, "1");
    expect(first.json.data).toMatchObject({
      version: 1,
      rawBodyHtml: "<p>v1</p>",
      rawSubject: template.subject,
      kind: "code",
    });
    const restored = await restoreVersion(ws.authorization, template.id, "1", { "if-match": '"2"' });
    expect([restored.status, restored.headers.get("etag")]).toEqual([200, '"3"']);
    expect(restored.json.data).toMatchObject({ version: 3, rawBodyHtml: "<p>v1</p>", rawSubject: template.subject });
    expect((await getVersion(ws.authorization, template.id, "3")).json.data.restoredFromVersion).toBe(1);
    const [entry] = await auditTrail(ws.workspace.id, ["template.restore"]);
    expect(entry).toMatchObject({
      actorType: "API_KEY",
      targetId: template.id,
      before: { version: 2 },
      after: { version: 3 },
    });
  });

  it("refuses a stale If-Match (409), an unknown version (404 naming version), another workspace's template (404); 403 names the scope", async () => {
    const { ws, template } = await withHistory();
    const stale = await restoreVersion(ws.authorization, template.id, "1", { "if-match": '"1"' });
    expect([stale.status, stale.json.error.code, stale.json.error.param]).toEqual([409, "CONFLICT", "If-Match"]);
    expect((await restoreVersion(ws.authorization, template.id, "1", { "if-match": "latest" })).json.error.param).toBe(
      "If-Match",
    );
    for (const v of ["9", "0", "1e0", "x"]) {
      const res = await getVersion(ws.authorization, template.id, v);
      expect([res.status, res.json.error.param], v).toEqual([404, "version"]);
      expect((await restoreVersion(ws.authorization, template.id, v)).status, v).toBe(404);
    }
    const other = await createTestWorkspace();
    for (const res of [
      await listVersions(other.authorization, template.id),
      await getVersion(other.authorization, template.id, "1"),
      await restoreVersion(other.authorization, template.id, "1"),
    ]) {
      expect([res.status, res.json.error.code]).toEqual([404, "NOT_FOUND"]);
    }
    const reader = await scopedAuthorization(ws.workspace.id, ["templates:read"]);
    expect((await listVersions(reader, template.id)).status).toBe(200);
    expect((await restoreVersion(reader, template.id, "1")).json.error).toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringContaining("templates:write"),
    });
    const sender = await scopedAuthorization(ws.workspace.id, ["emails:send"]);
    expect((await getVersion(sender, template.id, "1")).json.error.message).toContain("templates:read");
    expect(await auditTrail(ws.workspace.id, ["template.restore"])).toEqual([]);
    await withFailingAuditWrites(ws.workspace.id, async () =>
      expect((await restoreVersion(ws.authorization, template.id, "1")).status).toBe(500),
    );
    expect((await listVersions(ws.authorization, template.id)).json.meta.currentVersion).toBe(2);
  });
});

const save = (authorization: string, id: string, body: unknown) =>
  callRoute(scenarios.POST, `/api/v1/templates/${id}/scenarios`, { authorization, params: { id }, body });
const list = (authorization: string, id: string) =>
  callRoute(scenarios.GET, `/api/v1/templates/${id}/scenarios`, { authorization, params: { id } });
const one = (
  method: "GET" | "PATCH" | "DELETE",
  authorization: string,
  id: string,
  scenarioId: string,
  body?: unknown,
) =>
  callRoute(scenario[method], `/api/v1/templates/${id}/scenarios/${scenarioId}`, {
    method,
    authorization,
    params: { id, scenarioId },
    body,
  });

describe("template scenarios under /v1", () => {
  it("creates, upserts by name, lists, gets, renames, replaces variables and deletes, each audited as the key", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate();
    const created = await save(ws.authorization, template.id, { name: "New customer", variables: { name: "Ada" } });
    expect(created.status).toBe(200);
    expect(created.json.data).toMatchObject({
      type: "TemplateScenario",
      templateId: template.id,
      name: "New customer",
      variables: { name: "Ada" },
    });
    const id = created.json.data.id;
    expect(
      (await save(ws.authorization, template.id, { name: "New customer", variables: { name: "Grace" } })).json.data.id,
    ).toBe(id);
    await save(ws.authorization, template.id, { name: "Empty cart", variables: { items: [] } });
    const listed = await list(ws.authorization, template.id);
    expect([listed.json.meta, listed.json.data.map((s: { name: string }) => s.name)]).toEqual([
      { count: 2 },
      ["Empty cart", "New customer"],
    ]);
    expect((await one("GET", ws.authorization, template.id, id)).json.data.variables).toEqual({ name: "Grace" });
    const renamed = await one("PATCH", ws.authorization, template.id, id, { name: "Returning customer" });
    expect(renamed.json.data).toMatchObject({ name: "Returning customer", variables: { name: "Grace" } });
    const replaced = await one("PATCH", ws.authorization, template.id, id, { variables: { name: "Lin", vip: true } });
    expect(replaced.json.data).toMatchObject({ name: "Returning customer", variables: { name: "Lin", vip: true } });
    const deleted = await one("DELETE", ws.authorization, template.id, id);
    expect([deleted.status, deleted.json.data]).toEqual([200, { id, deleted: true }]);
    expect((await one("GET", ws.authorization, template.id, id)).status).toBe(404);
    const trail = await auditTrail(ws.workspace.id, [
      "template_scenario.create",
      "template_scenario.update",
      "template_scenario.delete",
    ]);
    expect(trail.map((entry) => [entry.action, entry.actorType, entry.targetId === id])).toEqual([
      ["template_scenario.create", "API_KEY", true],
      ["template_scenario.update", "API_KEY", true],
      ["template_scenario.create", "API_KEY", false],
      ["template_scenario.update", "API_KEY", true],
      ["template_scenario.update", "API_KEY", true],
      ["template_scenario.delete", "API_KEY", true],
    ]);
    expect(trail[3]).toMatchObject({ before: { name: "New customer" }, after: { name: "Returning customer" } });
  });

  it("names the field at fault, refuses a taken name (409), and leaves no entry for a refused change", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate();
    const keep = (await save(ws.authorization, template.id, { name: "Keep", variables: {} })).json.data;
    const other = (await save(ws.authorization, template.id, { name: "Other", variables: {} })).json.data;
    const before = (
      await auditTrail(ws.workspace.id, [
        "template_scenario.create",
        "template_scenario.update",
        "template_scenario.delete",
      ])
    ).length;
    for (const [body, param] of [
      [{ variables: {} }, "name"],
      [{ name: " ", variables: {} }, "name"],
      [{ name: "A", variables: [1] }, "variables"],
      [{ name: "A" }, "variables"],
      [[1], "name"],
    ] as const) {
      const res = await save(ws.authorization, template.id, body);
      expect([res.status, res.json.error.param], JSON.stringify(body)).toEqual([400, param]);
    }
    for (const [body, param] of [
      [{ name: "" }, "name"],
      [{ variables: "x" }, "variables"],
      [{ variables: { blob: "x".repeat(300_000) } }, "variables"],
    ] as const) {
      const res = await one("PATCH", ws.authorization, template.id, keep.id, body);
      expect([res.status, res.json.error.param], JSON.stringify(body).slice(0, 60)).toEqual([400, param]);
    }
    const taken = await one("PATCH", ws.authorization, template.id, keep.id, { name: "Other" });
    expect([taken.status, taken.json.error.code, taken.json.error.param]).toEqual([409, "CONFLICT", "name"]);
    await withFailingAuditWrites(ws.workspace.id, async () => {
      expect((await one("DELETE", ws.authorization, template.id, other.id)).status).toBe(500);
      expect((await save(ws.authorization, template.id, { name: "Third", variables: {} })).status).toBe(500);
    });
    expect((await list(ws.authorization, template.id)).json.data.map((s: { name: string }) => s.name)).toEqual([
      "Keep",
      "Other",
    ]);
    expect(
      await auditTrail(ws.workspace.id, [
        "template_scenario.create",
        "template_scenario.update",
        "template_scenario.delete",
      ]),
    ).toHaveLength(before);
  });

  it("answers another workspace's template or scenario as 404 and writes nothing; 403 names the scope", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const template = await ws.createTemplate();
    const theirs = await other.createTemplate();
    const mine = (await save(ws.authorization, template.id, { name: "Mine", variables: { a: 1 } })).json.data;
    const foreign = [
      await list(other.authorization, template.id),
      await save(other.authorization, template.id, { name: "Intruder", variables: {} }),
      await one("GET", other.authorization, template.id, mine.id),
      await one("PATCH", other.authorization, template.id, mine.id, { name: "Intruder" }),
      await one("DELETE", other.authorization, template.id, mine.id),
      await one("GET", ws.authorization, theirs.id, mine.id),
    ];
    for (const res of foreign) expect([res.status, res.json.error.code]).toEqual([404, "NOT_FOUND"]);
    expect((await one("GET", ws.authorization, template.id, mine.id)).json.data).toMatchObject({
      name: "Mine",
      variables: { a: 1 },
    });
    const reader = await scopedAuthorization(ws.workspace.id, ["templates:read"]);
    expect((await list(reader, template.id)).status).toBe(200);
    for (const res of [
      await save(reader, template.id, { name: "x", variables: {} }),
      await one("PATCH", reader, template.id, mine.id, { name: "x" }),
      await one("DELETE", reader, template.id, mine.id),
    ]) {
      expect([res.status, res.json.error.message]).toEqual([403, expect.stringContaining("templates:write")]);
    }
  });
});
