import { describe, expect, it } from "vitest";
import { basicAuthHeader, createApiKey } from "@/lib/domain/api-keys/create-api-key";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { apiAuditEntries, expectRefusal, scopedAuthorization } from "@/lib/testing/management";
import { GET as listMessages } from "../email_messages/handlers";
import { DELETE as revoke } from "./[id]/handlers";
import { GET as list, POST as create } from "./handlers";

describe("/v1/api_keys", () => {
  it("creates a key (secret once, works at once), lists without secrets, revokes (401 from then on); audited as the creating key", async () => {
    const ws = await createTestWorkspace();
    const auth = { authorization: ws.authorization };
    const made = await callRoute(create, "/api/v1/api_keys", {
      ...auth,
      body: { name: "reader", scopes: ["emails:read"], allowedIps: ["127.0.0.1"], expiresAt: "2099-01-01T00:00:00Z" },
    });
    expect(made.status).toBe(201);
    const key = made.json.data;
    expect(key).toMatchObject({
      type: "ApiKey",
      name: "reader",
      scopes: ["emails:read"],
      allowedIps: ["127.0.0.1/32"],
      expiresAt: "2099-01-01T00:00:00.000Z",
      revokedAt: null,
      secret: expect.stringMatching(/^[0-9A-Za-z]{40}$/),
    });
    const newAuth = basicAuthHeader(key.id, key.secret);
    const fromLoopback = { authorization: newAuth, headers: { "x-forwarded-for": "127.0.0.1" } };
    expect((await callRoute(listMessages, "/api/v1/email_messages", fromLoopback)).status).toBe(200);
    const listed = await callRoute(list, "/api/v1/api_keys", auth);
    expect(listed.json.data.map((row: { id: string }) => row.id)).toEqual([key.id, ws.key.id]);
    expect(JSON.stringify(listed.json)).not.toContain(key.secret);
    expect(listed.json.data[0].secret).toBeUndefined();

    const revoked = await callRoute(revoke, `/api/v1/api_keys/${key.id}`, {
      ...auth,
      method: "DELETE",
      params: { id: key.id },
    });
    expect(revoked.json.data).toMatchObject({ id: key.id, revokedAt: expect.any(String) });
    expect((await callRoute(listMessages, "/api/v1/email_messages", fromLoopback)).status).toBe(401);
    const entries = await apiAuditEntries(ws.workspace.id);
    expect(entries.map((e) => [e.action, e.targetId, e.actorId])).toEqual([
      ["api_key.create", key.id, ws.key.id],
      ["api_key.revoke", key.id, ws.key.id],
    ]);
    expect(JSON.stringify(entries)).not.toContain(key.secret);
  });

  it("a key never creates a key that can do more than itself: scopes it holds, its senders, ranges and expiry as bounds", async () => {
    const ws = await createTestWorkspace();
    const limited = await createApiKey({
      workspaceId: ws.workspace.id,
      name: "limited",
      actor: AUDIT_SYSTEM_ACTOR,
      scopes: ["keys:write", "emails:send"],
      allowedSenders: ["example.com"],
      allowedIps: ["10.0.0.0/8"],
      expiresAt: new Date("2090-01-01T00:00:00Z"),
    });
    const auth = {
      authorization: basicAuthHeader(limited.id, limited.password),
      headers: { "x-forwarded-for": "10.1.2.3" },
    };
    const within = {
      name: "sender",
      scopes: ["emails:send"],
      allowedSenders: ["billing@example.com"],
      allowedIps: ["10.1.0.0/16"],
      expiresAt: "2080-01-01T00:00:00Z",
    };
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ name: "all" }, "scopes"],
      [{ ...within, scopes: ["full"] }, "scopes"],
      [{ ...within, scopes: ["emails:send", "emails:read"] }, "scopes"],
      [{ ...within, allowedSenders: [] }, "allowedSenders"],
      [{ ...within, allowedSenders: ["a@other.test"] }, "allowedSenders"],
      [{ ...within, allowedIps: undefined }, "allowedIps"],
      [{ ...within, allowedIps: ["0.0.0.0/0"] }, "allowedIps"],
      [{ ...within, expiresAt: null }, "expiresAt"],
      [{ ...within, expiresAt: "2095-01-01T00:00:00Z" }, "expiresAt"],
    ];
    for (const [body, param] of refusals)
      await expectRefusal(
        ws.workspace.id,
        create,
        "/api/v1/api_keys",
        { ...auth, body },
        { status: 403, param, code: "FORBIDDEN" },
      );
    const made = await callRoute(create, "/api/v1/api_keys", { ...auth, body: within });
    expect(made.status).toBe(201);
    expect(made.json.data).toMatchObject({
      scopes: ["emails:send"],
      allowedSenders: ["billing@example.com"],
      allowedIps: ["10.1.0.0/16"],
    });
    // A sender may hand out the sandbox's narrower right, never the other way round.
    const sandbox = await callRoute(create, "/api/v1/api_keys", {
      ...auth,
      body: { ...within, name: "agent", scopes: ["emails:sandbox"] },
    });
    expect(sandbox.status).toBe(201);
    expect(sandbox.json.data.scopes).toEqual(["emails:sandbox"]);
    const narrow = await createApiKey({
      workspaceId: ws.workspace.id,
      name: "narrow",
      actor: AUDIT_SYSTEM_ACTOR,
      scopes: ["keys:write", "emails:sandbox"],
    });
    await expectRefusal(
      ws.workspace.id,
      create,
      "/api/v1/api_keys",
      { authorization: basicAuthHeader(narrow.id, narrow.password), body: { name: "live", scopes: ["emails:send"] } },
      { status: 403, param: "scopes", code: "FORBIDDEN" },
    );
    // full creates anything, including another full key.
    expect(
      (await callRoute(create, "/api/v1/api_keys", { authorization: ws.authorization, body: { name: "another full" } }))
        .json.data.scopes,
    ).toEqual(["full"]);
  });

  it("refuses bad input naming the field, another workspace's key (404) and a key without keys:write (403), writing nothing", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const auth = { authorization: ws.authorization };
    const cases: Array<[unknown, string]> = [
      [{}, "name"],
      [{ name: " " }, "name"],
      [{ name: "x", scopes: [] }, "scopes"],
      [{ name: "x", scopes: ["emails:delete"] }, "scopes"],
      [{ name: "x", allowedIps: ["300.1.1.1"] }, "allowedIps[0]"],
      [{ name: "x", allowedSenders: ["not a sender"] }, "allowedSenders[0]"],
      [{ name: "x", expiresAt: "someday" }, "expiresAt"],
      [{ name: "x", expiresAt: "2001-01-01T00:00:00Z" }, "expiresAt"],
    ];
    for (const [body, param] of cases)
      await expectRefusal(ws.workspace.id, create, "/api/v1/api_keys", { ...auth, body }, { status: 400, param });
    const params = { id: other.key.id };
    await expectRefusal(
      ws.workspace.id,
      revoke,
      `/api/v1/api_keys/${params.id}`,
      { ...auth, method: "DELETE", params },
      { status: 404, param: "id", code: "NOT_FOUND" },
    );
    expect(
      (await callRoute(listMessages, "/api/v1/email_messages", { authorization: other.authorization })).status,
    ).toBe(200);
    const sendOnly = { authorization: await scopedAuthorization(ws.workspace.id, ["emails:send", "workspace:write"]) };
    const one = `/api/v1/api_keys/${ws.key.id}`;
    for (const [handler, path, method, body] of [
      [list, "/api/v1/api_keys", "GET"],
      [create, "/api/v1/api_keys", "POST", { name: "x", scopes: ["emails:send"] }],
      [revoke, one, "DELETE"],
    ] as const) {
      const answer = await expectRefusal(
        ws.workspace.id,
        handler,
        path,
        { ...sendOnly, method, body },
        { status: 403, code: "FORBIDDEN" },
      );
      expect(answer.json.error.message).toContain("keys:write");
    }
    expect((await callRoute(list, "/api/v1/api_keys", auth)).json.data).toHaveLength(2);
  });
});
