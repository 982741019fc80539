import { describe, expect, it } from "vitest";
import { basicAuthHeader, createApiKey } from "@/lib/domain/api-keys/create-api-key";
import type { ApiScope } from "@/lib/domain/api-keys/scopes.shared";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi, callRoute } from "@/lib/testing/http";
import { API_ROUTES } from "../../routes";
import { ROUTE_METHODS } from "@/lib/entry/api/router";
import { GET } from "./handlers";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Every method of every route in the one route table, as an OpenAPI operation: `:id` → `{id}`. */
function servedOperations(): string[] {
  return API_ROUTES.flatMap(([pattern, module]) => {
    const openApiPath = `/v1${pattern.replace(/:(\w+)/g, "{$1}")}`;
    return ROUTE_METHODS.filter((method) => module[method]).map((method) => `${method} ${openApiPath}`);
  }).sort();
}

function documentedOperations(doc: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(doc.paths)
    .flatMap(([p, item]) =>
      Object.keys(item)
        .filter((k) => METHODS.includes(k.toUpperCase() as never))
        .map((k) => `${k.toUpperCase()} ${p}`),
    )
    .sort();
}

/** Every "$ref" in the document, as a JSON pointer into it. */
function refs(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => refs(item, found));
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") found.push(value);
      else refs(value, found);
    }
  }
  return found;
}

function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  return ref
    .slice(2)
    .split("/")
    .map((part) => decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>(
      (node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined),
      doc,
    );
}

describe("GET /v1/openapi.json", () => {
  it("is public JSON, cacheable for 5 minutes; other methods are 405", async () => {
    const res = await callRoute(GET, "/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.json.openapi).toBe("3.1.0");
    const post = await callApi("/api/v1/openapi.json", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET");
  });

  it("describes every route of the route table, and nothing that is not served", async () => {
    const doc = (await callRoute(GET, "/api/v1/openapi.json")).json;
    const served = servedOperations();
    expect(served).toContain("POST /v1/email_messages");
    expect(served).toContain("GET /v1/email_messages/{id}/events");
    expect(served).not.toContain("DELETE /v1/email_messages");
    expect(documentedOperations(doc)).toEqual(served);
  });

  it("has the basic shape of OpenAPI 3.1: info, servers, security, operations with responses, resolvable $refs", async () => {
    const doc = (await callRoute(GET, "/api/v1/openapi.json")).json;
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(doc.servers[0].url).toBe("/api");
    expect(doc.components.securitySchemes.basicAuth).toEqual(
      expect.objectContaining({ type: "http", scheme: "basic" }),
    );
    for (const name of [
      "EmailMessage",
      "EmailMessageLog",
      "Batch",
      "WorkflowRun",
      "Attachment",
      "RenderedTemplate",
      "Template",
      "Error",
    ]) {
      expect(doc.components.schemas[name], name).toMatchObject({ type: "object" });
    }
    const ids = new Set<string>();
    for (const [p, item] of Object.entries<
      Record<string, { operationId: string; responses: object; parameters?: { name: string; in: string }[] }>
    >(doc.paths)) {
      for (const op of Object.values(item)) {
        expect(ids.has(op.operationId), op.operationId).toBe(false);
        ids.add(op.operationId);
        expect(Object.keys(op.responses).length).toBeGreaterThan(0);
        for (const [, name] of p.matchAll(/\{(\w+)\}/g)) {
          expect(
            op.parameters?.some((param) => param.in === "path" && param.name === name),
            `${p} ${name}`,
          ).toBe(true);
        }
      }
    }
    const unresolved = refs(doc).filter((ref) => resolvePointer(doc, ref) === undefined);
    expect(unresolved).toEqual([]);
    expect(refs(doc).length).toBeGreaterThan(50);
  });

  it("names the errors of each endpoint: 429 everywhere behind auth, 413/415 on JSON bodies, dotted list params", async () => {
    const doc = (await callRoute(GET, "/api/v1/openapi.json")).json;
    const send = doc.paths["/v1/email_messages"].post;
    expect(Object.keys(send.responses)).toEqual(
      expect.arrayContaining(["200", "201", "400", "401", "404", "413", "415", "422", "429", "503"]),
    );
    expect(send.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/SendEmailRequest",
    });
    expect(doc.components.responses.RateLimited.headers).toHaveProperty("Retry-After");
    expect(send.responses["201"].headers).toHaveProperty("RateLimit-Remaining");
    const list = doc.paths["/v1/email_messages"].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["limit", "cursor.after", "cursor.before", "createdAt.gte"]),
    );
    expect(doc.paths["/v1/openapi.json"].get.security).toEqual([]);
    // Generated from the handler's zod schema: its limits show up.
    expect(doc.components.schemas.SendEmailRequest.properties.attachments).toMatchObject({ maxItems: 100 });
  });

  it("every operation names its scope (or full), and the served route demands exactly that scope", async () => {
    const doc = (await callRoute(GET, "/api/v1/openapi.json")).json;
    // Two keys with one scope each: every call is made with the one that lacks the operation's scope, so it is refused naming it.
    const ws = await createTestWorkspace();
    const keyWith = async (scope: ApiScope) => {
      const key = await createApiKey({
        workspaceId: ws.workspace.id,
        name: `only ${scope}`,
        scopes: [scope],
        actor: AUDIT_SYSTEM_ACTOR,
      });
      return basicAuthHeader(key.id, key.password);
    };
    const [keysOnly, sendOnly] = [await keyWith("keys:write"), await keyWith("emails:send")];
    let checked = 0;
    for (const openApiPath of new Set(API_ROUTES.map(([pattern]) => `/v1${pattern.replace(/:(\w+)/g, "{$1}")}`))) {
      for (const [method, op] of Object.entries<{
        security: Array<Record<string, string[]>>;
        "x-scope"?: string;
        "x-scopes"?: string[];
      }>(doc.paths[openApiPath] ?? {})) {
        // The openapi document, and a download whose signed URL is its own credential.
        if (
          openApiPath === "/v1/openapi.json" ||
          openApiPath === "/v1/inbound_messages/{id}/attachments/{attachmentId}"
        ) {
          expect(op.security).toEqual([]);
          continue;
        }
        const scope = op["x-scope"];
        expect(scope, `${method} ${openApiPath}`).toMatch(/^([a-z]+:(send|read|write)|full)$/);
        // Alternatives (the sandbox's sends: emails:send or emails:sandbox) are each a security entry.
        const scopes = op["x-scopes"] ?? [scope!];
        expect(scopes[0]).toBe(scope);
        expect(op.security).toEqual(
          scope === "full"
            ? [{ basicAuth: ["full"] }]
            : [...scopes.map((name) => ({ basicAuth: [name] })), { basicAuth: ["full"] }],
        );
        const authorization = scope === "keys:write" ? sendOnly : keysOnly;
        const answer = await callApi(openApiPath.replace("{id}", "x"), {
          method: method.toUpperCase(),
          headers: { authorization },
        });
        expect(answer.status, `${method} ${openApiPath}`).toBe(403);
        expect(answer.json.error.code).toBe("FORBIDDEN");
        expect(answer.json.error.message, `${method} ${openApiPath}`).toContain(`lacks the ${scope} scope`);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
    expect(doc.paths["/v1/sandbox/email_messages"].post["x-scopes"]).toEqual(["emails:send", "emails:sandbox"]);
    expect(doc.paths["/v1/email_messages"].post["x-scopes"]).toBeUndefined();
  });
});
