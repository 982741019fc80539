import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { templates } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { auditTrail, scopedAuthorization, withFailingAuditWrites } from "@/lib/testing/management";
import { createWorkflow } from "@/lib/flows/workflows/create-workflow";
import * as one from "./[id]/handlers";
import * as all from "./handlers";
import * as validate from "./validate/handlers";

const content = {
  name: "Receipt",
  subject: "Receipt {{ order.id }}",
  bodyHtml: "<p>Total {{ order.total }}</p>",
  fromAddress: "Acme <shop@example.com>",
};
const blocks = { root: { type: "EmailLayout", data: { childrenIds: [] } } };
const rowOf = async (id: string) => (await (await getDb()).select().from(templates).where(eq(templates.id, id)))[0];

const create = (authorization: string, body: unknown) =>
  callRoute(all.POST, "/api/v1/templates", { authorization, body });
const get = (authorization: string, id: string) =>
  callRoute(one.GET, `/api/v1/templates/${id}`, { authorization, params: { id } });
const patch = (authorization: string, id: string, body: unknown, headers: Record<string, string> = {}) =>
  callRoute(one.PATCH, `/api/v1/templates/${id}`, { method: "PATCH", authorization, params: { id }, body, headers });
const remove = (authorization: string, id: string) =>
  callRoute(one.DELETE, `/api/v1/templates/${id}`, { method: "DELETE", authorization, params: { id } });

describe("POST /v1/templates", () => {
  it("creates version 1, audited as the API key; a blocks document goes in and comes back as JSON", async () => {
    const ws = await createTestWorkspace();
    const res = await create(ws.authorization, { ...content, strict: true, bodyText: null });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      type: "Template",
      name: "Receipt",
      version: 1,
      kind: "code",
      blocks: null,
      rawSubject: content.subject,
      strict: true,
      rawBodyText: null,
    });
    expect(res.headers.get("etag")).toBe('"1"');
    const [entry] = await auditTrail(ws.workspace.id, ["template.create"]);
    expect(entry).toMatchObject({
      actorType: "API_KEY",
      actorId: ws.key.id,
      actorLabel: "test key",
      targetId: res.json.data.id,
      after: { name: "Receipt", version: 1 },
    });

    const visual = await create(ws.authorization, { ...content, name: "Visual", kind: "blocks", blocks });
    expect([visual.status, visual.json.data.kind, visual.json.data.blocks]).toEqual([201, "blocks", blocks]);
    expect((await get(ws.authorization, visual.json.data.id)).json.data.blocks).toEqual(blocks);
  });

  it("names the field at fault (400), the Liquid error's line and column (422), and writes nothing", async () => {
    const ws = await createTestWorkspace();
    const cases: Array<[unknown, number, string]> = [
      [{ ...content, name: "" }, 400, "name"],
      [{ ...content, subject: undefined }, 400, "subject"],
      [{ ...content, bodyHtml: 42 }, 400, "bodyHtml"],
      [{ ...content, strict: "yes" }, 400, "strict"],
      [{ ...content, kind: "mjml" }, 400, "kind"],
      [{ ...content, kind: "blocks" }, 400, "blocks"],
      [{ ...content, kind: "blocks", blocks: { header: {} } }, 400, "blocks"],
      [{ ...content, blocks: [1] }, 400, "blocks"],
      [{ ...content, bodyHtml: "<p>\n{% if %}</p>" }, 422, "bodyHtml"],
      [{ ...content, subject: "Hi {{ name" }, 422, "subject"],
    ];
    for (const [body, status, param] of cases) {
      const res = await create(ws.authorization, body);
      expect([res.status, res.json.error?.param], JSON.stringify(body)).toEqual([status, param]);
    }
    const liquid = await create(ws.authorization, { ...content, bodyHtml: "<p>\n{% if %}</p>" });
    expect(liquid.json.error).toMatchObject({
      code: "TEMPLATE_RENDER_ERROR",
      message: expect.stringMatching(/line 2, column \d+/),
    });
    expect((await callRoute(all.GET, "/api/v1/templates", { authorization: ws.authorization })).json.data).toEqual([]);
    expect(await auditTrail(ws.workspace.id, ["template.create"])).toEqual([]);
  });

  it("403 naming templates:write for a read-only key; templates:read may list and get", async () => {
    const ws = await createTestWorkspace();
    const reader = await scopedAuthorization(ws.workspace.id, ["templates:read"]);
    const refused = await create(reader, content);
    expect([refused.status, refused.json.error.code]).toEqual([403, "FORBIDDEN"]);
    expect(refused.json.error.message).toContain("templates:write");
    const sender = await scopedAuthorization(ws.workspace.id, ["emails:send"]);
    expect((await callRoute(all.GET, "/api/v1/templates", { authorization: sender })).json.error.message).toContain(
      "templates:read",
    );
    const template = await ws.createTemplate();
    expect((await get(reader, template.id)).status).toBe(200);
  });
});

describe("GET, PATCH, DELETE /v1/templates/:id", () => {
  it("patches the fields sent over the current ones, as the next version, with version or If-Match", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate({ bodyText: "Hello {{ name }}" });
    const read = await get(ws.authorization, template.id);
    expect([read.status, read.headers.get("etag"), read.json.data.name]).toEqual([200, '"1"', "Welcome"]);
    const renamed = await patch(ws.authorization, template.id, { name: "Hello", version: 1, bodyText: null });
    expect(renamed.status).toBe(200);
    expect(renamed.json.data).toMatchObject({
      name: "Hello",
      version: 2,
      rawSubject: template.subject,
      rawBodyText: "Hello {{ name }}",
    });
    const viaHeader = await patch(
      ws.authorization,
      template.id,
      { subject: "Hi {{ name }}", bodyText: "" },
      { "if-match": '"2"' },
    );
    expect([viaHeader.status, viaHeader.headers.get("etag"), viaHeader.json.data.rawBodyText]).toEqual([
      200,
      '"3"',
      null,
    ]);
    const lastWins = await patch(ws.authorization, template.id, { kind: "blocks", blocks });
    expect(lastWins.json.data).toMatchObject({ version: 4, kind: "blocks", blocks });
    const entries = await auditTrail(ws.workspace.id, ["template.update"]);
    expect(entries.map((entry) => [entry.actorType, entry.before, entry.after])).toEqual([
      ["API_KEY", { name: "Welcome", version: 1 }, { name: "Hello", version: 2 }],
      [
        "API_KEY",
        { subject: template.subject, version: 2 },
        { subject: "Hi {{ name }}", version: 3, changed: ["bodyText"] },
      ],
      ["API_KEY", { kind: "code", version: 3 }, { kind: "blocks", version: 4, changed: ["blocks"] }],
    ]);
  });

  it("refuses a stale version (409 naming version) or If-Match, and bad fields, leaving the template and the log as they were", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate();
    await patch(ws.authorization, template.id, { name: "Second" });
    const stale = await patch(ws.authorization, template.id, { name: "Late", version: 1 });
    expect([stale.status, stale.json.error.code, stale.json.error.param]).toEqual([409, "CONFLICT", "version"]);
    expect(stale.json.error.message).toBe(
      "This template was saved by someone else after you opened version 1: it is at version 2 now. Reload to see their changes.",
    );
    const ahead = await patch(ws.authorization, template.id, { name: "Late", version: 7 });
    expect([ahead.status, ahead.json.error.code, ahead.json.error.param, ahead.json.error.message]).toEqual([
      409,
      "CONFLICT",
      "version",
      "Version 7 of this template does not exist yet: the latest is version 2. Reload to base your change on it.",
    ]);
    expect((await patch(ws.authorization, template.id, { name: "Late" }, { "if-match": '"1"' })).status).toBe(409);
    const cases: Array<[unknown, Record<string, string>, number, string]> = [
      [{ name: " " }, {}, 400, "name"],
      [{ version: 0 }, {}, 400, "version"],
      [{ version: "2" }, {}, 400, "version"],
      [{ name: "x" }, { "if-match": "*" }, 400, "If-Match"],
      [{ version: 2 }, { "if-match": '"1"' }, 400, "version"],
      [{ kind: "blocks" }, {}, 400, "blocks"],
      [{ replyTo: 5 }, {}, 400, "replyTo"],
      [{ bodyHtml: "{% for %}" }, {}, 422, "bodyHtml"],
    ];
    for (const [body, headers, status, param] of cases) {
      const res = await patch(ws.authorization, template.id, body, headers);
      expect([res.status, res.json.error.param], JSON.stringify([body, headers])).toEqual([status, param]);
    }
    expect(await rowOf(template.id)).toMatchObject({ name: "Second", version: 2 });
    expect(await auditTrail(ws.workspace.id, ["template.update"])).toHaveLength(1);
  });

  it("lets one of two writers made from the same version win: the other gets 409, nothing is lost silently", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate();
    const answers = await Promise.all(
      ["Ann's", "Bo's"].map((name) => patch(ws.authorization, template.id, { name, version: 1 })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
    const winner = answers.find((res) => res.status === 200)!.json.data.name;
    expect(await rowOf(template.id)).toMatchObject({ name: winner, version: 2 });
    expect(await auditTrail(ws.workspace.id, ["template.update"])).toHaveLength(1);
  });

  it("deletes an unused template (audited), refuses with 409 naming the workflows that send one", async () => {
    const ws = await createTestWorkspace();
    const used = await ws.createTemplate({ name: "Used" });
    const unused = await ws.createTemplate({ name: "Unused" });
    await createWorkflow({
      workspaceId: ws.workspace.id,
      definition: { name: "Onboarding", steps: [{ type: "sendEmail", templateId: used.id, to: "{{ email }}" }] },
    });
    const refused = await remove(ws.authorization, used.id);
    expect([refused.status, refused.json.error.code]).toEqual([409, "CONFLICT"]);
    expect(refused.json.error.message).toContain("“Onboarding”");
    expect(await rowOf(used.id)).toBeDefined();
    const deleted = await remove(ws.authorization, unused.id);
    expect([deleted.status, deleted.json.data]).toEqual([200, { id: unused.id, deleted: true }]);
    expect(await rowOf(unused.id)).toBeUndefined();
    expect(
      (await auditTrail(ws.workspace.id, ["template.delete"])).map((entry) => [entry.targetId, entry.actorType]),
    ).toEqual([[unused.id, "API_KEY"]]);
    expect((await remove(ws.authorization, unused.id)).status).toBe(404);
  });

  it("answers another workspace's template as 404 on every method and changes nothing; 403 names the scope", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const theirs = await other.createTemplate();
    for (const res of [
      await get(ws.authorization, theirs.id),
      await patch(ws.authorization, theirs.id, { name: "Mine" }),
      await remove(ws.authorization, theirs.id),
    ]) {
      expect([res.status, res.json.error.code]).toEqual([404, "NOT_FOUND"]);
    }
    expect(await rowOf(theirs.id)).toMatchObject({ name: "Welcome", version: 1 });
    const reader = await scopedAuthorization(ws.workspace.id, ["templates:read"]);
    const mine = await ws.createTemplate();
    for (const res of [await patch(reader, mine.id, { name: "x" }), await remove(reader, mine.id)]) {
      expect([res.status, res.json.error.message]).toEqual([403, expect.stringContaining("templates:write")]);
    }
  });

  it("writes the audit entry in the change's transaction: when it cannot be written, the change is undone", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate();
    await withFailingAuditWrites(ws.workspace.id, async () => {
      expect((await patch(ws.authorization, template.id, { name: "Changed" })).status).toBe(500);
      expect((await remove(ws.authorization, template.id)).status).toBe(500);
      expect((await create(ws.authorization, content)).status).toBe(500);
    });
    expect(await rowOf(template.id)).toMatchObject({ name: "Welcome", version: 1 });
    expect((await callRoute(all.GET, "/api/v1/templates", { authorization: ws.authorization })).json.data).toHaveLength(
      1,
    );
  });
});

describe("POST /v1/templates/validate", () => {
  it("renders a valid draft, reports every field's error with line and column, saves nothing", async () => {
    const ws = await createTestWorkspace();
    const call = (authorization: string, body: unknown) =>
      callRoute(validate.POST, "/api/v1/templates/validate", { authorization, body });
    const good = await call(ws.authorization, {
      subject: "Hi {{ name }}",
      bodyHtml: "<p>{{ name }}</p>",
      variables: { name: "Ann" },
    });
    expect(good.status).toBe(200);
    expect(good.json.data).toMatchObject({
      type: "TemplateValidation",
      valid: true,
      problems: [],
      rendered: { subject: "Hi Ann", bodyHtml: "<p>Ann</p>" },
    });
    const bad = await call(ws.authorization, {
      subject: "{% if %}",
      bodyHtml: "<p>\n\n  {% for %}</p>",
      strict: true,
      variables: {},
    });
    expect(bad.json.data).toMatchObject({ valid: false, rendered: null });
    expect(bad.json.data.problems).toEqual([
      expect.objectContaining({ field: "subject", line: 1, column: expect.any(Number) }),
      expect.objectContaining({ field: "bodyHtml", line: 3, column: expect.any(Number) }),
    ]);
    const missing = await call(ws.authorization, { subject: "Hi", bodyHtml: "{{ name }}" });
    expect(missing.json.data).toMatchObject({ valid: true, missingVariables: ["name"] });
    for (const [body, param] of [
      [{ bodyHtml: "x" }, "subject"],
      [{ subject: "x", bodyHtml: "y", variables: [1] }, "variables"],
    ] as const) {
      const res = await call(ws.authorization, body);
      expect([res.status, res.json.error.param]).toEqual([400, param]);
    }
    const sender = await scopedAuthorization(ws.workspace.id, ["emails:send"]);
    expect((await call(sender, { subject: "x", bodyHtml: "y" })).json.error.message).toContain("templates:read");
    expect((await callRoute(all.GET, "/api/v1/templates", { authorization: ws.authorization })).json.data).toEqual([]);
  });
});
