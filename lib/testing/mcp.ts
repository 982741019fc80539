import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createNodeDoor } from "@/lib/entry/http/node-door";

/**
 * A real HTTP server on a free loopback port serving /api/mcp and /v1 through the production server's
 * door (lib/entry/http/node-door.ts) and the one route table, as `npm start` does; anything else is 404.
 */
export async function startMcpTestServer(): Promise<{ url: string; close(): Promise<void> }> {
  const { apiRouter, mcpRouter } = await import("@/app/api/routes");
  // The door builds request URLs from the port, known once the server listens (no request arrives before).
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const door = createNodeDoor({
    routers: [mcpRouter, apiRouter],
    fallback: (_req, res) => res.writeHead(404).end(),
    hostname: "127.0.0.1",
    port,
  });
  server.on("request", door);
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The SDK's own client over Streamable HTTP, with these credentials (an Authorization header value). */
export async function connectMcpClient(url: string, authorization: string): Promise<Client> {
  const client = new Client({ name: "postwerk-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("/api/mcp", url), {
    requestInit: { headers: { authorization } },
  });
  await client.connect(transport);
  return client;
}

/** A tool result's first text, parsed: the API's JSON (or, for an error, `{ status, error }`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary answer shapes
export function resultJson(result: unknown): any {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return JSON.parse(content[0].text!);
}
