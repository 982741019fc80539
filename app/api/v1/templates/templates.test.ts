import { describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { POST as preview } from "./[id]/preview/handlers";
import { GET as raw } from "./[id]/raw/handlers";
import { POST as render } from "./[id]/render/handlers";
import { GET as list } from "./handlers";

describe("templates API", () => {
  it("renders with variables, returns raw source, previews as text/html", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate({
      subject: "Hi {{ name }}",
      bodyHtml: '<p>{{ total | currency: "EUR", "de-DE" }} – <a href="https://example.com/o">order</a></p>',
    });
    const params = { id: template.id };
    const rendered = await callRoute(render, `/api/v1/templates/${template.id}/render`, {
      authorization: ws.authorization,
      params,
      body: { variables: { name: "Ann", total: 12.5 } },
    });
    expect(rendered.status).toBe(200);
    expect(rendered.json.data).toMatchObject({
      type: "RenderedTemplate",
      subject: "Hi Ann",
      bodyHtml: '<p>12,50\u00a0€ – <a href="https://example.com/o">order</a></p>',
      bodyText: "12,50\u00a0€ – order [https://example.com/o]",
    });

    const source = await callRoute(raw, `/api/v1/templates/${template.id}/raw`, {
      authorization: ws.authorization,
      params,
    });
    expect(source.json.data).toMatchObject({
      id: template.id,
      type: "Template",
      rawSubject: "Hi {{ name }}",
      rawBodyText: null,
    });

    const html = await callRoute(preview, `/api/v1/templates/${template.id}/preview`, {
      authorization: ws.authorization,
      params,
      body: { name: "Bo", total: 1 },
    });
    expect(html.status).toBe(200);
    expect(html.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(html.text).toContain("1,00");
  });

  it("401 without credentials, 404 for another workspace, 400 for bad variables, 422 for strict misses", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const strict = await ws.createTemplate({ strict: true, subject: "Hi {{ name }}" });
    const foreign = await other.createTemplate();
    const call = (handler: unknown, id: string, body?: unknown, authorization: string | null = ws.authorization) =>
      callRoute(handler, `/api/v1/templates/${id}/render`, { authorization, params: { id }, body });
    expect((await call(render, strict.id, { variables: {} }, null)).status).toBe(401);
    const missing = await call(render, foreign.id, { variables: {} });
    expect([missing.status, missing.json.error.code, missing.json.error.param]).toEqual([404, "NOT_FOUND", "id"]);
    expect(
      (
        await callRoute(raw, `/api/v1/templates/${foreign.id}/raw`, {
          authorization: ws.authorization,
          params: { id: foreign.id },
        })
      ).status,
    ).toBe(404);
    const badVariables = await call(render, strict.id, { variables: [1, 2] });
    expect([badVariables.status, badVariables.json.error.param]).toEqual([400, "variables"]);
    const strictMiss = await call(render, strict.id, { variables: {} });
    expect([strictMiss.status, strictMiss.json.error.code, strictMiss.json.error.param]).toEqual([
      422,
      "TEMPLATE_RENDER_ERROR",
      "subject",
    ]);
    const previewMiss = await call(preview, strict.id, {});
    expect(previewMiss.status).toBe(422);
  });

  it("gives unsubscribeUrl a stand-in link when rendering without a recipient, even in strict mode", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate({
      strict: true,
      subject: "News",
      bodyHtml: '<a href="{{ unsubscribeUrl }}">Unsubscribe</a>',
    });
    const rendered = await callRoute(render, `/api/v1/templates/${template.id}/render`, {
      authorization: ws.authorization,
      params: { id: template.id },
      body: { variables: {} },
    });
    expect(rendered.status).toBe(200);
    expect(rendered.json.data.bodyHtml).toMatch(/href="http[^"]+\/u\/preview"/);
  });
});

describe("POST /v1/templates/:id/preview with a /render-shaped body", () => {
  const call = (authorization: string, id: string, body: unknown) =>
    callRoute(preview, `/api/v1/templates/${id}/preview`, { authorization, params: { id }, body });

  it("renders body.variables and says so when that is the only key and the template reads no `variables`", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate({ subject: "Hi", bodyHtml: "<p>Hello {{ name }}</p>" });
    const wrapped = await call(ws.authorization, template.id, { variables: { name: "Ann" } });
    expect(wrapped.status).toBe(200);
    expect(wrapped.text).toContain("Hello Ann");
    expect(wrapped.headers.get("x-postwerk-note")).toBe("rendered body.variables as the variables");
    const plain = await call(ws.authorization, template.id, { name: "Bo" });
    expect([plain.text.includes("Hello Bo"), plain.headers.get("x-postwerk-note")]).toEqual([true, null]);
  });

  it("keeps the body as the variables when the template reads `variables`, or the body has other keys", async () => {
    const ws = await createTestWorkspace();
    const reads = await ws.createTemplate({ subject: "Hi", bodyHtml: "<p>{{ variables.name }}/{{ name }}</p>" });
    const literal = await call(ws.authorization, reads.id, { variables: { name: "Ann" } });
    expect([literal.text, literal.headers.get("x-postwerk-note")]).toEqual(["<p>Ann/</p>", null]);
    const plain = await ws.createTemplate({ subject: "Hi", bodyHtml: "<p>{{ name }}</p>" });
    const mixed = await call(ws.authorization, plain.id, { variables: { name: "Ann" }, name: "Bo" });
    expect([mixed.text, mixed.headers.get("x-postwerk-note")]).toEqual(["<p>Bo</p>", null]);
    const notObject = await call(ws.authorization, plain.id, { variables: "Ann" });
    expect(notObject.headers.get("x-postwerk-note")).toBeNull();
    expect((await call(ws.authorization, plain.id, [1])).status).toBe(400);
  });
});

describe("GET /v1/templates", () => {
  it("lists the workspace's own templates newest first, with cursors", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    await other.createTemplate({ name: "Theirs" });
    const first = await ws.createTemplate({ name: "First" });
    const second = await ws.createTemplate({ name: "Second" });
    const page = await callRoute(list, "/api/v1/templates?limit=1", { authorization: ws.authorization });
    expect(page.status).toBe(200);
    expect(page.json.data.map((t: { id: string }) => t.id)).toEqual([second.id]);
    expect(page.json.data[0]).toMatchObject({ type: "Template", rawSubject: "Welcome, {{ name }}" });
    expect(page.json.meta).toEqual({ limit: 1, count: 1, "cursor.after": second.id, "cursor.before": null });
    const next = await callRoute(list, `/api/v1/templates?limit=1&cursor.after=${second.id}`, {
      authorization: ws.authorization,
    });
    expect(next.json.data.map((t: { id: string }) => t.id)).toEqual([first.id]);
    expect(next.json.meta["cursor.after"]).toBeNull();
    expect(
      (await callRoute(list, "/api/v1/templates?limit=101", { authorization: ws.authorization })).json.error.param,
    ).toBe("limit");
    expect((await callRoute(list, "/api/v1/templates", {})).status).toBe(401);
  });
});
