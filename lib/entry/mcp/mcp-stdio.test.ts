import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/domain/api-keys/create-api-key";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { resultJson, startMcpTestServer } from "@/lib/testing/mcp";
import { bridgeSettingsFrom } from "./stdio-bridge";

let server: Awaited<ReturnType<typeof startMcpTestServer>>;
beforeAll(async () => {
  server = await startMcpTestServer();
});
afterAll(() => server.close());

/**
 * `npm run mcp` as an MCP client starts it: a child process speaking JSON-RPC on stdin/stdout. Started as
 * the script does (tsx's loader, the react-server condition) but as one Node process, as the worker tests do.
 */
async function stdioClient(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--conditions=react-server", "--import", "tsx", path.join("lib", "entry", "mcp", "stdio-main.ts")],
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => (stderr += chunk));
  const client = new Client({ name: "postwerk-stdio-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe("npm run mcp: the stdio bridge to /api/mcp", () => {
  it("lists the key's tools, sends to the sandbox and reads the message back", async () => {
    const ws = await createTestWorkspace();
    const key = await createApiKey({
      workspaceId: ws.workspace.id,
      name: "agent",
      scopes: ["emails:sandbox", "emails:read"],
      actor: AUDIT_SYSTEM_ACTOR,
    });
    const { client } = await stdioClient({ POSTWERK_URL: server.url, POSTWERK_API_KEY: `${key.id}:${key.password}` });
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(["send_email", "list_messages", "get_message", "explain_failure"]);
      const sent = await client.callTool({
        name: "send_email",
        arguments: { from: "hello@example.com", to: "ada@example.org", subject: "Hi", bodyHtml: "<p>Hi</p>" },
      });
      const id = resultJson(sent).data.id;
      expect((await readMessageState(id)).message.sandbox).toBe(true);
      const read = await client.callTool({ name: "get_message", arguments: { id } });
      expect(resultJson(read).data).toMatchObject({ id, source: "SANDBOX_API" });
      const refused = await client.callTool({ name: "get_message", arguments: {} });
      expect(refused.isError).toBe(true);
      expect(resultJson(refused)).toMatchObject({ status: 400, error: { param: "id" } });
    } finally {
      await client.close();
    }
  });

  it("a refused key is the answer to the client's first request, not a silent hang", async () => {
    const ws = await createTestWorkspace();
    const transport = stdioClient({ POSTWERK_URL: server.url, POSTWERK_API_KEY: `${ws.key.id}:wrong` });
    await expect(transport).rejects.toThrow(/UNAUTHORIZED/);
  });

  it("reads its settings from the environment, and says what is missing", () => {
    expect(
      bridgeSettingsFrom({ POSTWERK_API_KEY: "key_0123456789abcdef:s3cret", APP_URL: "https://mail.example.com/" }),
    ).toEqual({ url: new URL("https://mail.example.com/api/mcp"), apiKey: "key_0123456789abcdef:s3cret" });
    expect(bridgeSettingsFrom({ POSTWERK_API_KEY: "nope" })).toMatch(/POSTWERK_API_KEY must be/);
  });
});
