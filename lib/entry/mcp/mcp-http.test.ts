import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basicAuthHeader, createApiKey } from "@/lib/domain/api-keys/create-api-key";
import type { ApiScope } from "@/lib/domain/api-keys/scopes.shared";
import { listActivity, parseActivityListQuery } from "@/lib/records/activity/list-activity";
import { flushActivityLog } from "@/lib/records/activity/record-activity";
import { newId } from "@/lib/foundation/ids";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import { connectMcpClient, resultJson, startMcpTestServer } from "@/lib/testing/mcp";
import { mcpTools } from "./tools";

let server: Awaited<ReturnType<typeof startMcpTestServer>>;
beforeAll(async () => {
  server = await startMcpTestServer();
});
afterAll(() => server.close());

const rawSend = { from: "Acme <hello@example.com>", to: "ada@example.org", subject: "Hi", bodyHtml: "<p>Hi</p>" };

async function keyWith(workspaceId: string, scopes: ApiScope[]) {
  const key = await createApiKey({ workspaceId, name: scopes.join(" "), scopes, actor: AUDIT_SYSTEM_ACTOR });
  return { ...key, authorization: basicAuthHeader(key.id, key.password) };
}

async function toolNames(authorization: string): Promise<string[]> {
  const client = await connectMcpClient(server.url, authorization);
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

describe("MCP over Streamable HTTP (/api/mcp)", () => {
  it("lists the tools the key's scopes grant: all for full, no template editing for a send-only key", async () => {
    const ws = await createTestWorkspace();
    expect(await toolNames(ws.authorization)).toEqual(mcpTools().map((tool) => tool.name));
    expect(await toolNames((await keyWith(ws.workspace.id, ["emails:send"])).authorization)).toEqual(["send_email"]);
    expect(await toolNames((await keyWith(ws.workspace.id, ["emails:sandbox"])).authorization)).toEqual(["send_email"]);
    const readers = await toolNames((await keyWith(ws.workspace.id, ["templates:read", "emails:read"])).authorization);
    expect(readers).toEqual(
      expect.arrayContaining([
        "render_template",
        "preview_template",
        "list_templates",
        "get_message",
        "explain_failure",
      ]),
    );
    expect(readers).not.toContain("update_template");
    expect(readers).not.toContain("send_email");
    // A tool the key does not have does not exist for it.
    const client = await connectMcpClient(server.url, (await keyWith(ws.workspace.id, ["emails:send"])).authorization);
    await expect(client.callTool({ name: "update_template", arguments: { id: "tpl_x" } })).rejects.toThrow(
      /no tool update_template/,
    );
    await client.close();
  });

  it("each tool's input schema is the API's: the send body's fields, path and query parameters", async () => {
    const ws = await createTestWorkspace();
    const client = await connectMcpClient(server.url, ws.authorization);
    const { tools } = await client.listTools();
    const tool = (name: string) => tools.find((candidate) => candidate.name === name)!;
    expect(Object.keys(tool("send_email").inputSchema.properties!)).toEqual(
      expect.arrayContaining(["templateId", "to", "variables", "attachments", "sandbox"]),
    );
    expect(tool("update_template").inputSchema).toMatchObject({ required: ["id"] });
    expect(tool("update_template").inputSchema.properties).toHaveProperty("version");
    expect(Object.keys(tool("list_messages").inputSchema.properties!)).toEqual(
      expect.arrayContaining(["limit", "cursor.after", "status", "to", "subject", "tag"]),
    );
    expect(tool("list_messages").annotations).toMatchObject({ readOnlyHint: true });
    await client.close();
  });

  it("a sandbox-only key's send lands in the sandbox, even when asked for live mail; the live endpoint refuses it", async () => {
    const ws = await createTestWorkspace();
    const key = await keyWith(ws.workspace.id, ["emails:sandbox"]);
    const client = await connectMcpClient(server.url, key.authorization);
    const result = await client.callTool({ name: "send_email", arguments: { ...rawSend, sandbox: false } });
    expect(result.isError).toBeFalsy();
    const sent = resultJson(result).data;
    expect(sent.source).toBe("SANDBOX_API");
    expect((result.content as Array<{ text: string }>)[1].text).toMatch(/sandbox only/);
    expect((await readMessageState(sent.id)).message.sandbox).toBe(true);
    const live = await callApi("/api/v1/email_messages", { authorization: key.authorization, body: rawSend });
    expect(live.status).toBe(403);
    expect(live.json.error.message).toContain("lacks the emails:send scope");
    await client.close();
  });

  it("a live key sends live unless asked for the sandbox", async () => {
    const ws = await createTestWorkspace();
    const client = await connectMcpClient(server.url, (await keyWith(ws.workspace.id, ["emails:send"])).authorization);
    const live = resultJson(await client.callTool({ name: "send_email", arguments: rawSend })).data;
    const sandbox = resultJson(await client.callTool({ name: "send_email", arguments: { ...rawSend, sandbox: true } }));
    expect((await readMessageState(live.id)).message.sandbox).toBe(false);
    expect((await readMessageState(sandbox.data.id)).message.sandbox).toBe(true);
    await client.close();
  });

  it("bad input is answered with the API's error: isError, its status, code and param", async () => {
    const ws = await createTestWorkspace();
    const client = await connectMcpClient(server.url, ws.authorization);
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
      return resultJson(result);
    };
    const badRecipient = await call("send_email", { ...rawSend, to: "not an address" });
    expect(badRecipient).toMatchObject({
      status: 400,
      error: { code: "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR", param: "to" },
    });
    const typo = await call("send_email", { ...rawSend, bodyhtml: "<p>x</p>" });
    expect(typo).toMatchObject({
      status: 400,
      error: { code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", param: "bodyhtml" },
    });
    const noId = await call("update_template", { subject: "x" });
    expect(noId).toMatchObject({ status: 400, error: { param: "id" } });
    const unknown = await call("get_message", { id: newId("message") });
    expect(unknown).toMatchObject({ status: 404, error: { code: "NOT_FOUND" } });
    const badQuery = await call("list_messages", { status: "LOST" });
    expect(badQuery).toMatchObject({ status: 400, error: { param: "status" } });
    await client.close();
  });

  it("each call is in the API request log with the key; a change is in the audit log with the key as actor", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate();
    const client = await connectMcpClient(server.url, ws.authorization);
    await client.callTool({ name: "list_templates", arguments: {} });
    const updated = await client.callTool({
      name: "update_template",
      arguments: { id: template.id, version: template.version, subject: "Hello, {{ name }}" },
    });
    expect(resultJson(updated).data).toMatchObject({ version: template.version + 1, rawSubject: "Hello, {{ name }}" });
    await flushActivityLog();
    const paths = await activityPaths(ws.workspace.id);
    expect(paths).toEqual(
      expect.arrayContaining([`GET /v1/templates ${ws.key.id}`, `PATCH /v1/templates/${template.id} ${ws.key.id}`]),
    );
    const audit = await callApi("/api/v1/audit_events?action=template.update", { authorization: ws.authorization });
    expect(audit.json.data[0]).toMatchObject({
      actor: { type: "API_KEY", id: ws.key.id },
      target: { type: "template", id: template.id },
      userAgent: expect.stringContaining("(MCP)"),
    });
    await client.close();
  });

  it("refuses a bad key with the API's 401; takes the key as a bearer token too; POST only", async () => {
    const ws = await createTestWorkspace();
    await expect(connectMcpClient(server.url, basicAuthHeader(ws.key.id, "wrong"))).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining("UNAUTHORIZED"),
    });
    const raw = await fetch(`${server.url}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(raw.status).toBe(401);
    expect((await raw.json()).error.code).toBe("UNAUTHORIZED");
    const bearer = await connectMcpClient(server.url, `Bearer ${ws.key.id}:${ws.key.password}`);
    expect((await bearer.listTools()).tools.length).toBe(mcpTools().length);
    await bearer.close();
    const get = await fetch(`${server.url}/api/mcp`, { headers: { authorization: ws.authorization } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toContain("POST");
  });
});

/** The workspace's API request log, each entry as "METHOD path key". */
async function activityPaths(workspaceId: string): Promise<string[]> {
  const { items } = await listActivity(workspaceId, parseActivityListQuery(new URLSearchParams()));
  return items.map((item) => `${item.method} ${item.path} ${item.apiKeyId}`);
}
