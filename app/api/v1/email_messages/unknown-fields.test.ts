import http from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "@usewaypoint/client";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { batches, emailMessages, workflowRuns } from "@/db/schema";
import { nearestKey } from "@/lib/foundation/validation.shared";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";

/** Issue #29 item 8: the send paths refuse a key they do not know instead of dropping it (docs/api.md#unknown-fields). */
const raw = {
  from: "Acme <hello@example.com>",
  to: "ada@example.org",
  subject: "Your receipt",
  bodyHtml: "<p>Thanks</p>",
};

async function countRows(workspaceId: string) {
  const db = await getDb();
  const [messages, batchRows, runs] = await Promise.all([
    db.select().from(emailMessages).where(eq(emailMessages.workspaceId, workspaceId)),
    db.select().from(batches).where(eq(batches.workspaceId, workspaceId)),
    db.select().from(workflowRuns).where(eq(workflowRuns.workspaceId, workspaceId)),
  ]);
  return messages.length + batchRows.length + runs.length;
}

describe("unknown fields on the send paths", () => {
  it("an unknown key is a 400 naming it, on the live and sandbox paths, and writes nothing", async () => {
    const ws = await createTestWorkspace();
    for (const path of ["/v1/email_messages", "/v1/sandbox/email_messages"]) {
      const res = await callApi(path, { authorization: ws.authorization, body: { ...raw, labels: ["a"] } });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", param: "labels" });
      expect(res.json.error.message).toMatch(/^Unknown field labels; known fields are templateId, to, /);
    }
    expect(await countRows(ws.workspace.id)).toBe(0);
  });

  it("a misspelling is named before the field it misses would be required", async () => {
    const ws = await createTestWorkspace();
    const { bodyHtml, ...rest } = raw;
    const res = await callApi("/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...rest, bodyhtml: bodyHtml },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      param: "bodyhtml",
      message: "Unknown field bodyhtml; did you mean bodyHtml?",
    });
    // Nested objects of the schema are checked too; free-form records (variables, metadata) are not.
    const nested = await callApi("/v1/email_messages", {
      authorization: ws.authorization,
      body: {
        ...raw,
        variables: { anything: 1 },
        metadata: { orderId: "1" },
        attachments: [{ name: "a.txt", contentType: "text/plain", contentblob: "aGk=" }],
      },
    });
    expect(nested.json.error).toMatchObject({
      param: "attachments[0].contentblob",
      message: "Unknown field attachments[0].contentblob; did you mean contentBlob?",
    });
    expect(await countRows(ws.workspace.id)).toBe(0);
  });

  it("suggests only what is near for the key's length", () => {
    const known = ["templateId", "to", "cc", "bcc", "from", "subject", "bodyHtml", "bodyText"];
    expect(nearestKey("form", known)).toBe("from");
    expect(nearestKey("subjet", known)).toBe("subject");
    expect(nearestKey("TemplateID", known)).toBe("templateId");
    expect(nearestKey("labels", known)).toBeNull();
    expect(nearestKey("ccc", known)).toBeNull();
  });

  it("a batch: a send field at the top says it belongs on each element; an element's typo is named with its index", async () => {
    const ws = await createTestWorkspace();
    for (const path of ["/v1/batches", "/v1/email_messages_batch", "/v1/sandbox/batches"]) {
      const top = await callApi(path, {
        authorization: ws.authorization,
        body: { templateId: "tpl_x", emailMessages: [{ to: "ada@example.org" }] },
      });
      expect(top.status).toBe(400);
      expect(top.json.error.param).toBe("templateId");
      expect(top.json.error.message).toMatch(
        /^Unknown field templateId; templateId belongs on each element of emailMessages/,
      );
    }
    const res = await callApi("/v1/batches", {
      authorization: ws.authorization,
      body: { emailMessages: [raw, raw, { ...raw, subjet: "x" }, { ...raw, labels: [] }] },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.param).toBe("emailMessages[2].subjet");
    expect(res.json.error.details).toEqual([
      expect.objectContaining({
        index: 2,
        param: "emailMessages[2].subjet",
        message: "Unknown field emailMessages[2].subjet; did you mean subject?",
      }),
      expect.objectContaining({ index: 3, param: "emailMessages[3].labels" }),
    ]);
    const misspelt = await callApi("/v1/batches", {
      authorization: ws.authorization,
      body: { emailMessage: [raw] },
    });
    expect(misspelt.json.error.message).toBe("Unknown field emailMessage; did you mean emailMessages?");
    expect(await countRows(ws.workspace.id)).toBe(0);
  });

  it("POST /v1/workflow_runs and POST /v1/email_messages/:id/resend refuse an unknown key", async () => {
    const ws = await createTestWorkspace();
    const run = await callApi("/v1/workflow_runs", {
      authorization: ws.authorization,
      body: { workflowKey: "user.signed_up", varaibles: {} },
    });
    expect(run.status).toBe(400);
    expect(run.json.error).toMatchObject({
      param: "varaibles",
      message: "Unknown field varaibles; did you mean variables?",
    });
    const sent = await callApi("/v1/email_messages", { authorization: ws.authorization, body: raw });
    expect(sent.status).toBe(201);
    const resend = await callApi(`/v1/email_messages/${sent.json.data.id}/resend`, {
      authorization: ws.authorization,
      body: { metaid: "again" },
    });
    expect(resend.status).toBe(400);
    expect(resend.json.error).toMatchObject({ param: "metaid", message: "Unknown field metaid; did you mean metaId?" });
    expect(await countRows(ws.workspace.id)).toBe(1);
  });
});

describe("unknown fields on the management bodies", () => {
  it("domains, suppressions, unsubscribe groups, api keys, pause, templates and webhook endpoints name the key", async () => {
    const ws = await createTestWorkspace();
    const cases: Array<[string, unknown, string, string]> = [
      ["/v1/domains", { nmae: "mail.example.com" }, "nmae", "did you mean name?"],
      ["/v1/suppressions", { email: "a@example.org", reson: "MANUAL" }, "reson", "did you mean reason?"],
      ["/v1/unsubscribe_groups", { key: "news", name: "News", description: "x" }, "description", "known fields are"],
      ["/v1/api_keys", { name: "k", scope: ["emails:send"] }, "scope", "did you mean scopes?"],
      ["/v1/workspace/pause", { Reason: "x" }, "Reason", "did you mean reason?"],
      ["/v1/templates", { name: "T", subjct: "Hi", bodyHtml: "<p>x</p>" }, "subjct", "did you mean subject?"],
      ["/v1/webhook_endpoints", { url: "https://example.org/h", events: ["x"] }, "events", "known fields are"],
      ["/v1/workflows", { name: "W", steps: [], enable: true }, "enable", "did you mean enabled?"],
    ];
    for (const [path, body, param, hint] of cases) {
      const res = await callApi(path, { authorization: ws.authorization, body });
      expect(res.status, path).toBe(400);
      expect(res.json.error.param, path).toBe(param);
      expect(res.json.error.message, path).toContain(hint);
    }
    const patched = await callApi("/v1/workspace", {
      method: "PATCH",
      authorization: ws.authorization,
      body: { testmode: true },
    });
    expect(patched.json.error).toMatchObject({
      param: "testmode",
      message: "Unknown field testmode; did you mean testMode?",
    });
  });
});

describe("@usewaypoint/client sends nothing the API refuses", () => {
  let server: http.Server;
  const saved = process.env.MARKETBASE_API_HOST;

  beforeAll(async () => {
    // The whole route table behind plain node:http, so the client's own axios request reaches the router.
    const { apiRouter } = await import("@/app/api/routes");
    server = http.createServer(async (incoming, outgoing) => {
      const chunks: Buffer[] = [];
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers))
        if (typeof value === "string") headers.set(name, value);
      const response = await apiRouter(
        new Request(`http://127.0.0.1${incoming.url}`, {
          method: incoming.method,
          headers,
          body: chunks.length ? Buffer.concat(chunks) : undefined,
        }),
      );
      outgoing
        .writeHead(response.status, Object.fromEntries(response.headers))
        .end(Buffer.from(await response.arrayBuffer()));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    process.env.MARKETBASE_API_HOST = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    process.env.MARKETBASE_API_HOST = saved;
    await new Promise((resolve) => server.close(resolve));
  });

  it("every field of its typed bodies, nulls included, is accepted", async () => {
    const ws = await createTestWorkspace();
    const client = createClient(ws.key.id, ws.key.password);
    const rawSent = await client.emailMessages.createRaw({
      ...raw,
      metaId: "waypoint-raw",
      cc: "cc@example.org",
      bcc: null,
      bodyText: "Thanks",
    });
    expect(rawSent.status).toBe(201);
    const sandboxSent = await client.sandboxEmailMessages.create({ ...raw, metaId: null, bodyText: null });
    expect(sandboxSent.status).toBe(201);
    // Every templated field: the unknown template is the only complaint, never a field.
    const templated = await client.emailMessages
      .createTemplated({
        templateId: "tpl_missing",
        to: "ada@example.org",
        from: null,
        cc: null,
        bcc: null,
        metaId: null,
        variables: { name: "Ada" },
        groupId: null,
        groupKey: null,
      })
      .then(
        (answer) => answer,
        (error: { response: { status: number; data: unknown } }) => ({
          status: error.response.status,
          body: error.response.data,
        }),
      );
    expect(templated.status).toBe(404);
    expect(JSON.stringify(templated.body)).not.toMatch(/Unknown field/);
    // Its one other body: preview takes the variables as the whole body, so any key goes.
    const template = await ws.createTemplate();
    const preview = await client.templates.previewHtml(template.id, { name: "Ada", anything: { nested: true } });
    expect(preview.status).toBe(200);
  });
});
