import { describe, expect, it } from "vitest";
import { basicAuthHeader, createApiKey } from "@/lib/domain/api-keys/create-api-key";
import { revokeApiKeyOrThrow } from "@/lib/domain/api-keys/revoke-api-key";
import { AUDIT_SYSTEM_ACTOR, userActor } from "@/lib/records/audit/actor";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi, callRoute } from "@/lib/testing/http";
import { GET } from "./handlers";

const ada = userActor(
  { id: "user_0000000000000001", email: "ada@example.com" },
  { ip: "198.51.100.4", userAgent: "Safari" },
);

describe("GET /v1/audit_events", () => {
  it("lists the workspace's entries newest first as AuditEvents, with keyset cursors and filters", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const key = await createApiKey({ workspaceId: ws.workspace.id, name: "web", actor: ada, scopes: ["emails:send"] });
    await revokeApiKeyOrThrow(ws.workspace.id, key.id, ada);
    const all = await callRoute(GET, "/api/v1/audit_events", { authorization: ws.authorization });
    expect(all.status).toBe(200);
    expect(all.json.data.map((e: { action: string }) => e.action)).toEqual([
      "api_key.revoke",
      "api_key.create",
      "api_key.create",
      "domain.add",
    ]);
    expect(all.json.data[0]).toEqual({
      id: expect.stringMatching(/^audit_/),
      type: "AuditEvent",
      actor: { type: "USER", id: ada.id, label: "ada@example.com" },
      action: "api_key.revoke",
      target: { type: "api_key", id: key.id },
      before: { revokedAt: null },
      after: { revokedAt: expect.any(String) },
      ip: "198.51.100.4",
      userAgent: "Safari",
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(all.json)).not.toContain(other.key.id);

    const first = await callRoute(GET, "/api/v1/audit_events?limit=1", { authorization: ws.authorization });
    expect(first.json.meta).toMatchObject({ limit: 1, count: 1, "cursor.before": null });
    const next = await callRoute(GET, `/api/v1/audit_events?limit=1&cursor.after=${first.json.meta["cursor.after"]}`, {
      authorization: ws.authorization,
    });
    expect(next.json.data[0].action).toBe("api_key.create");
    expect(next.json.data[0].target.id).toBe(key.id);

    const filtered = await callRoute(
      GET,
      `/api/v1/audit_events?actorType=USER&targetId=${key.id}&action=api_key.create`,
      { authorization: ws.authorization },
    );
    expect(filtered.json.data.map((e: { action: string }) => e.action)).toEqual(["api_key.create"]);
    const since = await callRoute(
      GET,
      `/api/v1/audit_events?createdAt.gt=${encodeURIComponent(all.json.data[0].createdAt)}`,
      { authorization: ws.authorization },
    );
    expect(since.json.data).toEqual([]);
  });

  it("a full key only: any other scope is 403 naming full; bad filters are 400 naming them; other methods 405", async () => {
    const ws = await createTestWorkspace();
    const scoped = await createApiKey({
      workspaceId: ws.workspace.id,
      name: "all but full",
      actor: AUDIT_SYSTEM_ACTOR,
      scopes: ["emails:read", "keys:write", "workspace:write"],
    });
    const refused = await callRoute(GET, "/api/v1/audit_events", {
      authorization: basicAuthHeader(scoped.id, scoped.password),
    });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringContaining("lacks the full scope"),
    });
    for (const [query, param] of [
      ["actorType=ROBOT", "actorType"],
      ["action=a%20b", "action"],
      ["limit=101", "limit"],
      ["cursor.after=audit_x", "cursor.after"],
    ]) {
      const res = await callRoute(GET, `/api/v1/audit_events?${query}`, { authorization: ws.authorization });
      expect(res.status, query).toBe(400);
      expect(res.json.error.param, query).toBe(param);
    }
    const other = await createTestWorkspace();
    const [foreign] = (await callRoute(GET, "/api/v1/audit_events?limit=1", { authorization: other.authorization }))
      .json.data;
    const cursor = await callRoute(GET, `/api/v1/audit_events?cursor.after=${foreign.id}`, {
      authorization: ws.authorization,
    });
    expect(cursor.status).toBe(400);
    expect((await callApi("/api/v1/audit_events", { method: "POST", authorization: ws.authorization })).status).toBe(
      405,
    );
  });
});
