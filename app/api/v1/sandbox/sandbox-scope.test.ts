import { describe, expect, it } from "vitest";
import { basicAuthHeader, createApiKey } from "@/lib/domain/api-keys/create-api-key";
import type { ApiScope } from "@/lib/domain/api-keys/scopes.shared";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";

const rawSend = { from: "Acme <hello@example.com>", to: "ada@example.org", subject: "Hi", bodyHtml: "<p>Hi</p>" };

/** Every send of the API: the sandbox's twins take emails:sandbox as well as emails:send, the live ones only emails:send. */
const SENDS = [
  { path: "/api/v1/sandbox/email_messages", sandbox: true },
  { path: "/api/v1/sandbox/batches", sandbox: true },
  { path: "/api/v1/sandbox/email_messages_batch", sandbox: true },
  { path: "/api/v1/sandbox/workflow_runs", sandbox: true },
  { path: "/api/v1/email_messages", sandbox: false },
  { path: "/api/v1/batches", sandbox: false },
  { path: "/api/v1/email_messages_batch", sandbox: false },
  { path: "/api/v1/workflow_runs", sandbox: false },
  { path: "/api/v1/attachments", sandbox: false },
];

async function keyWith(workspaceId: string, scopes: ApiScope[]) {
  const key = await createApiKey({ workspaceId, name: scopes.join(" "), scopes, actor: AUDIT_SYSTEM_ACTOR });
  return basicAuthHeader(key.id, key.password);
}

describe("the sandbox-only scope (emails:sandbox)", () => {
  it("opens the sandbox's sends and no live one: a key with only it cannot send real mail", async () => {
    const ws = await createTestWorkspace();
    const authorization = await keyWith(ws.workspace.id, ["emails:sandbox"]);
    for (const send of SENDS) {
      const answer = await callApi(send.path, { authorization, body: {} });
      if (send.sandbox) expect(answer.status, send.path).not.toBe(403);
      else {
        expect(answer.status, send.path).toBe(403);
        expect(answer.json.error.message).toContain("lacks the emails:send scope (it has emails:sandbox)");
      }
    }
    const sent = await callApi("/api/v1/sandbox/email_messages", { authorization, body: rawSend });
    expect(sent.status).toBe(201);
    expect((await readMessageState(sent.json.data.id)).message.sandbox).toBe(true);
  });

  it("a live sender still uses the sandbox; a key with neither hears both alternatives", async () => {
    const ws = await createTestWorkspace();
    const sender = await keyWith(ws.workspace.id, ["emails:send"]);
    expect((await callApi("/api/v1/sandbox/email_messages", { authorization: sender, body: rawSend })).status).toBe(
      201,
    );
    const reader = await keyWith(ws.workspace.id, ["emails:read"]);
    const refused = await callApi("/api/v1/sandbox/email_messages", { authorization: reader, body: rawSend });
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toBe(
      "This API key lacks the emails:send scope (or emails:sandbox; it has emails:read). Use a key created with emails:send, emails:sandbox or full.",
    );
  });
});
