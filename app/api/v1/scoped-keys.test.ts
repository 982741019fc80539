import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { basicAuthHeader, createApiKey, type ApiKeyRestrictions } from "@/lib/domain/api-keys/create-api-key";
import { revokeApiKeyOrThrow } from "@/lib/domain/api-keys/revoke-api-key";
import type { ApiScope } from "@/lib/domain/api-keys/scopes.shared";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import * as attachments from "./attachments/handlers";
import * as batchMessages from "./batches/[id]/email_messages/handlers";
import * as batch from "./batches/[id]/handlers";
import * as batches from "./batches/handlers";
import * as events from "./email_messages/[id]/events/handlers";
import * as resend from "./email_messages/[id]/resend/handlers";
import * as message from "./email_messages/[id]/handlers";
import * as messages from "./email_messages/handlers";
import * as sandboxBatches from "./sandbox/batches/handlers";
import * as sandboxMessages from "./sandbox/email_messages/handlers";
import * as sandboxRuns from "./sandbox/workflow_runs/handlers";
import * as preview from "./templates/[id]/preview/handlers";
import * as raw from "./templates/[id]/raw/handlers";
import * as render from "./templates/[id]/render/handlers";
import * as templates from "./templates/handlers";
import * as run from "./workflow_runs/[id]/handlers";
import * as runs from "./workflow_runs/handlers";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";

type Call = {
  name: string;
  handler: unknown;
  path: string;
  method: string;
  scope: ApiScope;
  body?: unknown;
  params?: Record<string, string>;
};
const id = { id: "x" };

/** docs/api.md#scopes, as calls: every /v1 operation with the one scope it needs. */
const CALLS: Call[] = [
  { name: "send", handler: messages.POST, path: "/v1/email_messages", method: "POST", scope: "emails:send", body: {} },
  {
    name: "sandbox send",
    handler: sandboxMessages.POST,
    path: "/v1/sandbox/email_messages",
    method: "POST",
    scope: "emails:send",
    body: {},
  },
  { name: "batch", handler: batches.POST, path: "/v1/batches", method: "POST", scope: "emails:send", body: {} },
  {
    name: "sandbox batch",
    handler: sandboxBatches.POST,
    path: "/v1/sandbox/batches",
    method: "POST",
    scope: "emails:send",
    body: {},
  },
  {
    name: "legacy batch",
    handler: batches.POST,
    path: "/v1/email_messages_batch",
    method: "POST",
    scope: "emails:send",
    body: {},
  },
  {
    name: "sandbox legacy batch",
    handler: sandboxBatches.POST,
    path: "/v1/sandbox/email_messages_batch",
    method: "POST",
    scope: "emails:send",
    body: {},
  },
  {
    name: "workflow run",
    handler: runs.POST,
    path: "/v1/workflow_runs",
    method: "POST",
    scope: "emails:send",
    body: {},
  },
  {
    name: "sandbox workflow run",
    handler: sandboxRuns.POST,
    path: "/v1/sandbox/workflow_runs",
    method: "POST",
    scope: "emails:send",
    body: {},
  },
  {
    name: "attachment",
    handler: attachments.POST,
    path: "/v1/attachments",
    method: "POST",
    scope: "emails:send",
    body: {},
  },
  {
    name: "resend",
    handler: resend.POST,
    path: "/v1/email_messages/x/resend",
    method: "POST",
    scope: "emails:send",
    body: {},
    params: id,
  },
  { name: "list messages", handler: messages.GET, path: "/v1/email_messages", method: "GET", scope: "emails:read" },
  {
    name: "get message",
    handler: message.GET,
    path: "/v1/email_messages/x",
    method: "GET",
    scope: "emails:read",
    params: id,
  },
  {
    name: "message events",
    handler: events.GET,
    path: "/v1/email_messages/x/events",
    method: "GET",
    scope: "emails:read",
    params: id,
  },
  { name: "get batch", handler: batch.GET, path: "/v1/batches/x", method: "GET", scope: "emails:read", params: id },
  {
    name: "batch messages",
    handler: batchMessages.GET,
    path: "/v1/batches/x/email_messages",
    method: "GET",
    scope: "emails:read",
    params: id,
  },
  { name: "get run", handler: run.GET, path: "/v1/workflow_runs/x", method: "GET", scope: "emails:read", params: id },
  { name: "list templates", handler: templates.GET, path: "/v1/templates", method: "GET", scope: "templates:read" },
  {
    name: "raw template",
    handler: raw.GET,
    path: "/v1/templates/x/raw",
    method: "GET",
    scope: "templates:read",
    params: id,
  },
  {
    name: "render template",
    handler: render.POST,
    path: "/v1/templates/x/render",
    method: "POST",
    scope: "templates:read",
    body: {},
    params: id,
  },
  {
    name: "preview template",
    handler: preview.POST,
    path: "/v1/templates/x/preview",
    method: "POST",
    scope: "templates:read",
    body: {},
    params: id,
  },
];

const rawSend = { from: "Acme <hello@example.com>", to: "ada@example.org", subject: "Hi", bodyHtml: "<p>Hi</p>" };

async function keyFor(workspaceId: string, grant: ApiKeyRestrictions) {
  const key = await createApiKey({ workspaceId, name: "scoped", actor: AUDIT_SYSTEM_ACTOR, ...grant });
  return { ...key, authorization: basicAuthHeader(key.id, key.password) };
}

const call = (c: Call, authorization: string, headers: Record<string, string> = {}) =>
  callRoute(c.handler, `/api${c.path}`, { method: c.method, body: c.body, params: c.params, authorization, headers });

describe("scoped API keys", () => {
  it("each scope opens exactly its operations; the others answer 403 FORBIDDEN naming the missing scope", async () => {
    const ws = await createTestWorkspace();
    for (const scope of ["emails:send", "emails:read", "templates:read", "keys:write"] as const) {
      const key = await keyFor(ws.workspace.id, { scopes: [scope] });
      for (const c of CALLS) {
        const res = await call(c, key.authorization);
        if (c.scope === scope) {
          expect(res.status, `${scope} → ${c.name}`).not.toBe(403);
        } else {
          expect(res.status, `${scope} → ${c.name}`).toBe(403);
          expect(res.json.error).toMatchObject({
            code: "FORBIDDEN",
            message: expect.stringContaining(`lacks the ${c.scope} scope`),
          });
        }
      }
    }
  });

  it("full (the default, and what keys made before scopes have) and a key with several scopes pass every check", async () => {
    const ws = await createTestWorkspace();
    expect(ws.key.scopes).toEqual(["full"]);
    const several = await keyFor(ws.workspace.id, {
      scopes: ["templates:read", "emails:send", "emails:read", "emails:send"],
    });
    expect(several.scopes).toEqual(["emails:read", "emails:send", "templates:read"]);
    const widened = await keyFor(ws.workspace.id, { scopes: ["emails:read", "full"] });
    expect(widened.scopes).toEqual(["full"]);
    for (const authorization of [ws.authorization, several.authorization]) {
      for (const c of CALLS) expect((await call(c, authorization)).status, c.name).not.toBe(403);
    }
  });

  it("a send-only key sends but cannot read what it sent; a read key reads it", async () => {
    const ws = await createTestWorkspace();
    const sender = await keyFor(ws.workspace.id, { scopes: ["emails:send"] });
    const reader = await keyFor(ws.workspace.id, { scopes: ["emails:read"] });
    const sent = await callRoute(messages.POST, "/api/v1/email_messages", {
      authorization: sender.authorization,
      body: rawSend,
    });
    expect(sent.status).toBe(201);
    const params = { id: sent.json.data.id };
    const refused = await callRoute(message.GET, `/api/v1/email_messages/${params.id}`, {
      authorization: sender.authorization,
      params,
    });
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toContain("emails:read");
    const read = await callRoute(message.GET, `/api/v1/email_messages/${params.id}`, {
      authorization: reader.authorization,
      params,
    });
    expect(read.status).toBe(200);
    expect(
      (await callRoute(messages.POST, "/api/v1/email_messages", { authorization: reader.authorization, body: rawSend }))
        .status,
    ).toBe(403);
  });

  it("allowed senders: another from is a 422 naming from (or the batch element's from); an allowed address or domain sends", async () => {
    const ws = await createTestWorkspace();
    await ws.createTemplate();
    const key = await keyFor(ws.workspace.id, { scopes: ["emails:send"], allowedSenders: ["billing@example.com"] });
    const refused = await callRoute(messages.POST, "/api/v1/email_messages", {
      authorization: key.authorization,
      body: rawSend,
    });
    expect(refused.status).toBe(422);
    expect(refused.json.error).toMatchObject({
      code: "EMAIL_MESSAGE_INVALID_SENDER_ERROR",
      param: "from",
      message: expect.stringContaining("billing@example.com"),
    });
    const allowed = await callRoute(messages.POST, "/api/v1/email_messages", {
      authorization: key.authorization,
      body: { ...rawSend, from: "Billing <BILLING@example.com>" },
    });
    expect(allowed.status).toBe(201);
    const batchRes = await callRoute(batches.POST, "/api/v1/batches", {
      authorization: key.authorization,
      body: { emailMessages: [{ ...rawSend, from: "billing@example.com" }, rawSend] },
    });
    expect(batchRes.status).toBe(422);
    expect(batchRes.json.error.details).toEqual([
      expect.objectContaining({ index: 1, param: "emailMessages[1].from" }),
    ]);
    const domainKey = await keyFor(ws.workspace.id, { allowedSenders: ["Example.com"] });
    expect(domainKey.allowedSenders).toEqual(["example.com"]);
    expect(
      (
        await callRoute(messages.POST, "/api/v1/email_messages", {
          authorization: domainKey.authorization,
          body: rawSend,
        })
      ).status,
    ).toBe(201);
    const other = await callRoute(messages.POST, "/api/v1/email_messages", {
      authorization: domainKey.authorization,
      body: { ...rawSend, from: "a@mail.example.com" },
    });
    expect(other.status).toBe(422);
    // The resend of a message from another sender is refused the same way.
    const original = await callRoute(messages.POST, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: rawSend,
    });
    const params = { id: original.json.data.id };
    const again = await callRoute(resend.POST, `/api/v1/email_messages/${params.id}/resend`, {
      authorization: key.authorization,
      params,
    });
    expect(again.status).toBe(422);
    expect(again.json.error.param).toBe("from");
  });

  it("IP allow list: an address inside a range passes, any other (or none) is 403; IPv6 and mapped IPv4 work", async () => {
    const ws = await createTestWorkspace();
    const key = await keyFor(ws.workspace.id, { allowedIps: ["10.0.0.0/8", "2001:db8::/32", "192.0.2.7"] });
    expect(key.allowedIps).toEqual(["10.0.0.0/8", "2001:db8::/32", "192.0.2.7/32"]);
    const list = CALLS.find((c) => c.name === "list messages")!;
    for (const ip of ["10.1.2.3", "2001:db8::5", "::ffff:10.9.9.9", "192.0.2.7"]) {
      expect((await call(list, key.authorization, { "x-forwarded-for": `${ip}, 172.16.0.1` })).status, ip).toBe(200);
    }
    for (const headers of [{ "x-forwarded-for": "11.0.0.1" }, { "x-real-ip": "192.0.2.8" }, {}] as Record<
      string,
      string
    >[]) {
      const res = await call(list, key.authorization, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.json.error.code).toBe("FORBIDDEN");
    }
  });

  it("expiry: valid until the instant, then 401 saying it expired", async () => {
    const ws = await createTestWorkspace();
    const key = await keyFor(ws.workspace.id, { expiresAt: new Date(Date.now() + 60_000) });
    const list = CALLS.find((c) => c.name === "list messages")!;
    expect((await call(list, key.authorization)).status).toBe(200);
    await (
      await getDb()
    )
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(apiKeys.id, key.id));
    invalidateShortLivedCaches(); // changed behind the use cases' back: as another process would, seen within a second
    const res = await call(list, key.authorization);
    expect(res.status).toBe(401);
    expect(res.json.error).toMatchObject({ code: "UNAUTHORIZED", message: expect.stringContaining("expired") });
  });

  it("revocation holds from the next request on, whatever the scopes (the revoking process clears its key cache)", async () => {
    const ws = await createTestWorkspace();
    const key = await keyFor(ws.workspace.id, { scopes: ["emails:read"] });
    const list = CALLS.find((c) => c.name === "list messages")!;
    expect((await call(list, key.authorization)).status).toBe(200);
    await revokeApiKeyOrThrow(ws.workspace.id, key.id, AUDIT_SYSTEM_ACTOR);
    expect((await call(list, key.authorization)).status).toBe(401);
  });

  it("refuses bad restrictions at creation, naming the entry, and writes nothing", async () => {
    const ws = await createTestWorkspace();
    const cases: Array<[ApiKeyRestrictions, string]> = [
      [{ allowedIps: ["10.0.0.0/8", "10.0.0.0/33"] }, "allowedIps[1]"],
      [{ allowedIps: ["not-an-ip"] }, "allowedIps[0]"],
      [{ allowedSenders: ["ok@example.com", "a@@b"] }, "allowedSenders[1]"],
      [{ expiresAt: new Date(Date.now() - 1000) }, "expiresAt"],
    ];
    for (const [grant, param] of cases) {
      await expect(keyFor(ws.workspace.id, grant)).rejects.toMatchObject({
        code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
        param,
      });
    }
    const rows = await (
      await getDb()
    )
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(eq(apiKeys.workspaceId, ws.workspace.id));
    expect(rows).toEqual([{ id: ws.key.id }]);
  });
});
