import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { GET as listMessages } from "./email_messages/route";
import { GET as listTemplates } from "./templates/route";

// Attacks found against a running instance: a NUL in an id or a filter reached PostgreSQL (500).
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Every route under app/api/v1 with a dynamic segment, found on disk so a new one is covered too. */
function idRoutes(dir = __dirname, prefix = "/api/v1"): Array<{ file: string; path: string }> {
  const found: Array<{ file: string; path: string }> = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith("[...")) continue;
    const inner = path.join(dir, entry.name);
    const segment = entry.name.replace(/^\[(\w+)\]$/, ":$1");
    if (readdirSync(inner).includes("route.ts") && prefix.concat("/", segment).includes(":")) {
      found.push({ file: path.join(inner, "route.ts"), path: `${prefix}/${segment}` });
    }
    found.push(...idRoutes(inner, `${prefix}/${segment}`));
  }
  return found;
}

describe("a NUL character in a path id", () => {
  const routes = idRoutes();

  it("finds the id routes", () => {
    expect(routes.map((route) => route.path).sort()).toEqual([
      "/api/v1/api_keys/:id",
      "/api/v1/batches/:id",
      "/api/v1/batches/:id/cancel",
      "/api/v1/batches/:id/email_messages",
      "/api/v1/contacts/:id",
      "/api/v1/contacts/:id/unsubscribes",
      "/api/v1/domains/:id",
      "/api/v1/domains/:id/verify",
      "/api/v1/email_messages/:id",
      "/api/v1/email_messages/:id/cancel",
      "/api/v1/email_messages/:id/events",
      "/api/v1/email_messages/:id/resend",
      "/api/v1/email_messages_batch/:id/cancel",
      "/api/v1/suppressions/:email",
      "/api/v1/templates/:id",
      "/api/v1/templates/:id/preview",
      "/api/v1/templates/:id/raw",
      "/api/v1/templates/:id/render",
      "/api/v1/templates/:id/scenarios",
      "/api/v1/templates/:id/scenarios/:scenarioId",
      "/api/v1/templates/:id/versions",
      "/api/v1/templates/:id/versions/:version",
      "/api/v1/templates/:id/versions/:version/restore",
      "/api/v1/unsubscribe_groups/:id",
      "/api/v1/webhook_endpoints/:id",
      "/api/v1/webhook_endpoints/:id/deliveries",
      "/api/v1/webhook_endpoints/:id/deliveries/:deliveryId",
      "/api/v1/webhook_endpoints/:id/replay",
      "/api/v1/webhook_endpoints/:id/rotate_secret",
      "/api/v1/webhook_endpoints/:id/test",
      "/api/v1/workflow_runs/:id",
      "/api/v1/workflows/:id",
      "/api/v1/workflows/:id/disable",
      "/api/v1/workflows/:id/enable",
    ]);
  });

  it("is refused with 400 naming `id` by every method an id route serves, never a 500", async () => {
    const ws = await createTestWorkspace();
    for (const route of routes) {
      const handlers = (await import(route.file)) as Record<string, unknown>;
      let served = 0;
      for (const method of METHODS) {
        if (!handlers[method]) continue;
        for (const id of ["\u0000", "em_\u0000abc", "tpl_0000000000000000\u0000"]) {
          const url = route.path.replace(":id", encodeURIComponent(id));
          const body = method === "GET" ? undefined : {};
          const res = await callRoute(handlers[method], url, { method, authorization: ws.authorization, params: { id }, body });
          expect(res.status, `${method} ${route.path}`).not.toBe(500);
          if (res.status === 405) continue;
          served++;
          expect(res.status, `${method} ${route.path}`).toBe(400);
          expect(res.json.error).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", param: "id" });
        }
      }
      expect(served, route.path).toBeGreaterThan(0);
    }
  });
});

describe("a NUL character in a query parameter", () => {
  it("is refused with 400 naming the parameter on the lists", async () => {
    const ws = await createTestWorkspace();
    const filters = ["cursor.after", "cursor.before", "batchId", "templateId", "metaId", "to", "status", "source", "createdAt.gte", "limit"];
    for (const name of filters) {
      const res = await callRoute(listMessages, `/api/v1/email_messages?${name}=em_%00`, { authorization: ws.authorization });
      expect(res.status, name).toBe(400);
      expect(res.json.error).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", param: name });
    }
    const templates = await callRoute(listTemplates, "/api/v1/templates?cursor.after=%00", { authorization: ws.authorization });
    expect(templates.json.error).toMatchObject({ param: "cursor.after" });
    const name = await callRoute(listMessages, "/api/v1/email_messages?a%00b=1", { authorization: ws.authorization });
    expect(name.status).toBe(400);
    expect(name.json.error.param).toBe("a\\u0000b");
  });

  it("is refused on the id routes' own queries (page, offset)", async () => {
    const ws = await createTestWorkspace();
    const { GET: events } = await import("./email_messages/[id]/events/route");
    const { GET: batchMessages } = await import("./batches/[id]/email_messages/route");
    const res = await callRoute(events, "/api/v1/email_messages/em_x/events?page=%00", { authorization: ws.authorization, params: { id: "em_x" } });
    expect(res.json.error).toMatchObject({ param: "page" });
    const batch = await callRoute(batchMessages, "/api/v1/batches/b_x/email_messages?offset=1%00", { authorization: ws.authorization, params: { id: "b_x" } });
    expect(batch.json.error).toMatchObject({ param: "offset" });
  });
});
