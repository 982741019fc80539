import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { basicAuthHeader, createApiKey } from "@/lib/domain/api-keys/create-api-key";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import { connectMcpClient, resultJson, startMcpTestServer } from "@/lib/testing/mcp";
import { useSettings } from "@/lib/testing/settings";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { API_DOCS_URI } from "./resources";
import { mcpTools } from "./tools";

let server: Awaited<ReturnType<typeof startMcpTestServer>>;
let receiver: WebhookReceiver;
beforeAll(async () => {
  useSettings({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_ALLOW_HTTP: "true" });
  [server, receiver] = await Promise.all([startMcpTestServer(), startWebhookReceiver()]);
});
afterAll(async () => {
  await Promise.all([server.close(), receiver.close()]);
  useSettings({ WEBHOOKS_ALLOW_PRIVATE: undefined, WEBHOOKS_ALLOW_HTTP: undefined });
});

/** Calls a tool that must succeed; its JSON, or its text when the answer is not JSON (the preview's HTML). */
async function ok(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ text: string }>)[0].text;
  expect(result.isError, `${name}: ${text}`).toBeFalsy();
  called.add(name);
  return text.startsWith("{") ? resultJson(result) : text;
}
const called = new Set<string>();

const BOUNCE = "550 5.1.1 <ada@example.org>: Recipient address rejected: User unknown";

describe("MCP tools, each through the API", () => {
  it("sends, renders, previews, lists, reads and explains messages", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate();
    const client = await connectMcpClient(server.url, ws.authorization);
    const sent = await ok(client, "send_email", {
      templateId: template.id,
      to: "ada@example.org",
      variables: { name: "Ada" },
    });
    expect(sent.data).toMatchObject({ source: "API", serviceTemplateId: template.id });

    const rendered = await ok(client, "render_template", { id: template.id, variables: { name: "Ada" } });
    expect(rendered.data.subject).toBe("Welcome, Ada");
    const preview = await ok(client, "preview_template", { id: template.id, variables: { name: "Ada" } });
    expect(preview).toContain("Hello Ada");

    const listed = await ok(client, "list_messages", { to: "ada@example.org", limit: 10 });
    expect(listed.data.map((message: { id: string }) => message.id)).toContain(sent.data.id);
    const read = await ok(client, "get_message", { id: sent.data.id });
    expect(read.data.id).toBe(sent.data.id);
    expect(read.timeline[0]).toMatch(/^\d{4}-.*Z Accepted/);

    // A bounce the provider reported, and the suppression it caused.
    const bounced = await insertTestMessage(ws.workspace.id, { status: "FAILED" });
    await recordEvent(await getDb(), {
      workspaceId: ws.workspace.id,
      messageId: bounced,
      code: "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT",
      message: BOUNCE,
    });
    const suppressed = await callApi("/api/v1/suppressions", {
      authorization: ws.authorization,
      body: { email: "ada@example.org", reason: "HARD_BOUNCE" },
    });
    expect(suppressed.status).toBe(201);
    const explained = await ok(client, "explain_failure", { id: bounced });
    expect(explained.problems).toEqual([
      expect.objectContaining({ what: "Bounced — unknown address", providerAnswer: BOUNCE }),
    ]);
    expect(explained.suppressions).toEqual([
      expect.objectContaining({ email: "ada@example.org", reason: "HARD_BOUNCE" }),
    ]);
    expect(explained.summary).toContain(`${bounced} is FAILED.`);
    expect(explained.summary).toContain(BOUNCE);
    expect(explained.summary).toContain("ada@example.org is suppressed (HARD_BOUNCE");
    expect(await ok(client, "list_suppressions")).toMatchObject({
      data: [expect.objectContaining({ reason: "HARD_BOUNCE" })],
    });

    // Without suppressions:write the explanation says what it could not check.
    const reader = await createApiKey({
      workspaceId: ws.workspace.id,
      name: "reader",
      scopes: ["emails:read"],
      actor: AUDIT_SYSTEM_ACTOR,
    });
    const readerClient = await connectMcpClient(server.url, basicAuthHeader(reader.id, reader.password));
    const partial = await ok(readerClient, "explain_failure", { id: bounced });
    expect(partial.suppressions).toBeNull();
    expect(partial.summary).toContain("lacks the suppressions:write scope");
    await Promise.all([client.close(), readerClient.close()]);
  });

  it("lists, reads and edits templates with the version check; templates and the API docs are resources", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate();
    const client = await connectMcpClient(server.url, ws.authorization);
    expect((await ok(client, "list_templates")).data.map((row: { id: string }) => row.id)).toEqual([template.id]);
    const read = await ok(client, "get_template", { id: template.id });
    expect(read.data).toMatchObject({ version: 1, rawSubject: "Welcome, {{ name }}" });
    const edited = await ok(client, "update_template", { id: template.id, version: 1, name: "Welcome mail" });
    expect(edited.data).toMatchObject({ version: 2, name: "Welcome mail" });
    const stale = await client.callTool({
      name: "update_template",
      arguments: { id: template.id, version: 1, name: "x" },
    });
    expect(stale.isError).toBe(true);
    expect(resultJson(stale)).toMatchObject({ status: 409, error: { code: "CONFLICT" } });

    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([API_DOCS_URI, `postwerk://templates/${template.id}`]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((resource) => resource.uriTemplate)).toEqual(["postwerk://templates/{id}"]);
    const resource = await client.readResource({ uri: `postwerk://templates/${template.id}` });
    expect(JSON.parse((resource.contents[0] as { text: string }).text).data).toMatchObject({
      id: template.id,
      version: 2,
    });
    const docs = await client.readResource({ uri: API_DOCS_URI });
    expect(JSON.parse((docs.contents[0] as { text: string }).text).openapi).toBe("3.1.0");
    await expect(client.readResource({ uri: "postwerk://templates/tpl_unknown" })).rejects.toThrow(/not found/);

    // A key that may not read templates has the docs only.
    const sender = await createApiKey({
      workspaceId: ws.workspace.id,
      name: "sender",
      scopes: ["emails:send"],
      actor: AUDIT_SYSTEM_ACTOR,
    });
    const senderClient = await connectMcpClient(server.url, basicAuthHeader(sender.id, sender.password));
    expect((await senderClient.listResources()).resources.map((resource) => resource.uri)).toEqual([API_DOCS_URI]);
    await expect(senderClient.readResource({ uri: `postwerk://templates/${template.id}` })).rejects.toThrow(
      /no resource/,
    );
    await Promise.all([client.close(), senderClient.close()]);
  });

  it("lists webhook endpoints and deliveries, replays one event; lists domains and their checks", async () => {
    const ws = await createTestWorkspace();
    const client = await connectMcpClient(server.url, ws.authorization);
    const endpoint = await callApi("/api/v1/webhook_endpoints", {
      authorization: ws.authorization,
      body: { url: receiver.url, eventTypes: ["email.sent"] },
    });
    expect(endpoint.status).toBe(201);
    const id = endpoint.json.data.id;
    expect((await ok(client, "list_webhook_endpoints")).data).toEqual([expect.objectContaining({ id })]);
    const message = await insertTestMessage(ws.workspace.id);
    await recordEvent(await getDb(), {
      workspaceId: ws.workspace.id,
      messageId: message,
      code: "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
      message: "Handed to the provider",
    });
    const replayed = await ok(client, "replay_webhook_delivery", { id, since: "2000-01-01T00:00:00Z" });
    expect(replayed.data).toMatchObject({ replayed: 1 });
    const deliveries = await ok(client, "list_webhook_deliveries", { id });
    expect(deliveries.data).toEqual([expect.objectContaining({ emailMessageId: message, eventType: "email.sent" })]);
    const one = await ok(client, "replay_webhook_delivery", { id, eventId: deliveries.data[0].eventId });
    expect(one.data).toMatchObject({ replayed: 1 });
    const neither = await client.callTool({ name: "replay_webhook_delivery", arguments: { id } });
    expect(resultJson(neither)).toMatchObject({ status: 400, error: { param: "since" } });

    const domains = await ok(client, "list_domains");
    expect(domains.data).toEqual([expect.objectContaining({ id: ws.domain.id, name: "example.com" })]);
    const checks = await ok(client, "get_domain_checks", { id: ws.domain.id });
    expect(checks).toMatchObject({ meta: { count: expect.any(Number) }, data: expect.any(Array) });
    await client.close();
  });

  it("every tool was called above", () => {
    expect([...called].sort()).toEqual(
      mcpTools()
        .map((tool) => tool.name)
        .sort(),
    );
  });
});
