import "server-only";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { authenticateApiKey } from "@/lib/domain/api-keys/authenticate-api-key";
import { MB, readJsonBody } from "@/lib/entry/api/read-json";
import { errorReply, jsonResponse } from "@/lib/entry/api/respond";
import { clientIp } from "@/lib/entry/api/with-api-key";
import { apiCaller, type ApiDoor } from "./api-call";
import { createMcpServer } from "./server";

/** The API's largest body (a batch, withApiKey's default): no MCP message needs more. */
const MAX_BODY_BYTES = 10 * MB;

/**
 * POST /api/mcp: MCP's Streamable HTTP transport, stateless. Every request is authenticated as the API
 * authenticates (HTTP Basic, or `Bearer key_…:secret`), gets a fresh server holding the tools the key's
 * scopes grant, and is answered with JSON; no session is kept between requests, so any process can answer
 * any request. A refusal before MCP (credentials, body) is the API's own error envelope.
 */
export function createMcpHandler(api: ApiDoor) {
  return async (request: Request): Promise<Response> => {
    try {
      const authorization = basicAuthorization(request.headers.get("authorization"));
      const principal = await authenticateApiKey(authorization, { ip: clientIp(request) });
      const body = await readJsonBody(request, MAX_BODY_BYTES);
      const server = createMcpServer({ principal, api: apiCaller(api, request, authorization ?? "") });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      try {
        return await transport.handleRequest(request, { parsedBody: body });
      } finally {
        await server.close();
      }
    } catch (error) {
      return jsonResponse(errorReply(error));
    }
  };
}

/**
 * MCP clients configure a bearer token more easily than Basic credentials: `Bearer key_…:secret` (or its
 * base64) is the same key, handed to the API as Basic. Anything else is passed on, to be refused as usual.
 */
export function basicAuthorization(header: string | null): string | null {
  const bearer = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return bearer ? `Basic ${bearer[1]}` : header;
}
