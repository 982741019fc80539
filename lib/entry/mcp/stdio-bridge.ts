import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  LATEST_PROTOCOL_VERSION,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";

export interface BridgeSettings {
  /** The instance's base URL; its MCP endpoint is /api/mcp there. */
  url: URL;
  /** `key_…:secret`. */
  apiKey: string;
}

/** POSTWERK_URL (else APP_URL, else a local instance) and POSTWERK_API_KEY; a sentence saying what is wrong otherwise. */
export function bridgeSettingsFrom(env: Record<string, string | undefined>): BridgeSettings | string {
  const base = env.POSTWERK_URL || env.APP_URL || "http://localhost:3000";
  let url: URL;
  try {
    url = new URL("/api/mcp", base);
  } catch {
    return `POSTWERK_URL must be the instance's URL, such as https://mail.example.com; got ${base}.`;
  }
  const apiKey = env.POSTWERK_API_KEY ?? "";
  if (!/^key_[0-9A-Za-z]{16}:\S+$/.test(apiKey))
    return "POSTWERK_API_KEY must be an API key as key_…:secret (the dashboard's API keys page shows both once).";
  return { url, apiKey };
}

/**
 * `npm run mcp`: an MCP server on stdin/stdout that is only a pipe to a running instance's /api/mcp. Every
 * JSON-RPC message goes over unchanged, both ways, so the tools, their scopes and their errors are the
 * instance's own and this process holds no database, no secrets but the key, and no state.
 */
export async function startStdioBridge(
  settings: BridgeSettings,
  local = new StdioServerTransport(),
): Promise<{ close(): Promise<void> }> {
  const authorization = `Basic ${Buffer.from(settings.apiKey).toString("base64")}`;
  const remote = new StreamableHTTPClientTransport(settings.url, { requestInit: { headers: { authorization } } });
  const initializing = new Set<string | number>();
  const inFlight = new Set<Promise<void>>();
  local.onmessage = (message) => {
    if (isJSONRPCRequest(message) && message.method === "initialize") initializing.add(message.id);
    const sending = remote.send(message).catch(async (error: unknown) => {
      // The instance refused or could not be reached: the client hears it as the answer to its request.
      if (isJSONRPCRequest(message)) await local.send(failure(message.id, error));
    });
    inFlight.add(sending);
    void sending.finally(() => inFlight.delete(sending));
  };
  remote.onmessage = (message) => {
    // The version the client and the instance agreed on, which the HTTP transport then sends on each request.
    if (isJSONRPCResultResponse(message) && initializing.delete(message.id)) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      remote.setProtocolVersion(typeof version === "string" ? version : LATEST_PROTOCOL_VERSION);
    }
    void local.send(message);
  };
  remote.onerror = (error) => console.error(`postwerk mcp: ${messageOf(error)}`);
  local.onerror = (error) => console.error(`postwerk mcp: ${messageOf(error)}`);
  await remote.start();
  await local.start();
  return {
    // A client that writes its last request and closes stdin still gets the answer.
    close: async () => {
      await Promise.allSettled([...inFlight]);
      await local.close();
      await remote.close();
    },
  };
}

function failure(id: string | number, error: unknown): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error: { code: -32000, message: `Postwerk's /api/mcp: ${messageOf(error)}` } };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
