import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { callApi, callRoute } from "@/lib/testing/http";
import { ROUTE_METHODS, type RouteModule } from "@/lib/entry/api/router";
import { API_ROUTES } from "../routes";
import { GET as listMessages } from "./email_messages/handlers";
import { GET as listTemplates } from "./templates/handlers";

// Attacks found against a running instance: a NUL in an id or a filter reached PostgreSQL (500).

// Three ids by every method of every id route from one key pass its burst of 200: a 429 would prove nothing.
beforeAll(() => useSettings({ RATE_LIMIT_PER_SECOND: "0" }));
afterAll(() => useSettings({ RATE_LIMIT_PER_SECOND: undefined }));

/** Every route of the route table with a path parameter, so a new one is covered too. */
function idRoutes(): Array<{ path: string; param: string; module: RouteModule }> {
  return API_ROUTES.filter(([pattern]) => pattern.includes(":")).map(([pattern, module]) => ({
    path: `/api/v1${pattern}`,
    param: /:(\w+)/.exec(pattern)![1],
    module,
  }));
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
      "/api/v1/domains/:id/dmarc",
      "/api/v1/domains/:id/requirements",
      "/api/v1/domains/:id/verify",
      "/api/v1/email_messages/:id",
      "/api/v1/email_messages/:id/cancel",
      "/api/v1/email_messages/:id/events",
      "/api/v1/email_messages/:id/resend",
      "/api/v1/email_messages_batch/:id/cancel",
      "/api/v1/inbound_domains/:id",
      "/api/v1/inbound_domains/:id/verify",
      "/api/v1/inbound_messages/:id",
      "/api/v1/inbound_messages/:id/attachments/:attachmentId",
      "/api/v1/inbound_messages/:id/raw",
      "/api/v1/inbound_messages/:id/reply",
      "/api/v1/inbound_routes/:id",
      "/api/v1/providers/:id",
      "/api/v1/routing_rules/:id",
      "/api/v1/suppressions/:email",
      "/api/v1/templates/:id",
      "/api/v1/templates/:id/check",
      "/api/v1/templates/:id/locales",
      "/api/v1/templates/:id/locales/:locale",
      "/api/v1/templates/:id/locales/:locale/messages",
      "/api/v1/templates/:id/preview",
      "/api/v1/templates/:id/raw",
      "/api/v1/templates/:id/render",
      "/api/v1/templates/:id/scenarios",
      "/api/v1/templates/:id/scenarios/:scenarioId",
      "/api/v1/templates/:id/versions",
      "/api/v1/templates/:id/versions/:version",
      "/api/v1/templates/:id/versions/:version/restore",
      "/api/v1/threads/:id",
      "/api/v1/threads/:id/reply",
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

  it("is refused with 400 naming the parameter by every method an id route serves, never a 500", async () => {
    const ws = await createTestWorkspace();
    for (const route of routes) {
      let served = 0;
      for (const method of ROUTE_METHODS) {
        if (!route.module[method]) continue;
        for (const id of ["\u0000", "em_\u0000abc", "tpl_0000000000000000\u0000"]) {
          const url = route.path.replace(`:${route.param}`, encodeURIComponent(id)).replace(/:\w+/g, "x");
          const body = method === "GET" ? undefined : {};
          const res = await callApi(url, { method, authorization: ws.authorization, body });
          expect(res.status, `${method} ${route.path}`).not.toBe(500);
          if (res.status === 405) continue;
          served++;
          expect(res.status, `${method} ${route.path}`).toBe(400);
          expect(res.json.error).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", param: route.param });
        }
      }
      expect(served, route.path).toBeGreaterThan(0);
    }
  });
});

describe("a NUL character in a query parameter", () => {
  it("is refused with 400 naming the parameter on the lists", async () => {
    const ws = await createTestWorkspace();
    const filters = [
      "cursor.after",
      "cursor.before",
      "batchId",
      "templateId",
      "metaId",
      "to",
      "status",
      "source",
      "createdAt.gte",
      "limit",
    ];
    for (const name of filters) {
      const res = await callRoute(listMessages, `/api/v1/email_messages?${name}=em_%00`, {
        authorization: ws.authorization,
      });
      expect(res.status, name).toBe(400);
      expect(res.json.error).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", param: name });
    }
    const templates = await callRoute(listTemplates, "/api/v1/templates?cursor.after=%00", {
      authorization: ws.authorization,
    });
    expect(templates.json.error).toMatchObject({ param: "cursor.after" });
    const name = await callRoute(listMessages, "/api/v1/email_messages?a%00b=1", { authorization: ws.authorization });
    expect(name.status).toBe(400);
    expect(name.json.error.param).toBe("a\\u0000b");
  });

  it("is refused on the id routes' own queries (page, offset)", async () => {
    const ws = await createTestWorkspace();
    const { GET: events } = await import("./email_messages/[id]/events/handlers");
    const { GET: batchMessages } = await import("./batches/[id]/email_messages/handlers");
    const res = await callRoute(events, "/api/v1/email_messages/em_x/events?page=%00", {
      authorization: ws.authorization,
      params: { id: "em_x" },
    });
    expect(res.json.error).toMatchObject({ param: "page" });
    const batch = await callRoute(batchMessages, "/api/v1/batches/b_x/email_messages?offset=1%00", {
      authorization: ws.authorization,
      params: { id: "b_x" },
    });
    expect(batch.json.error).toMatchObject({ param: "offset" });
  });
});
