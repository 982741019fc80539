// The low-level Server, not McpServer: McpServer validates a tool's arguments against its schema before the
// tool runs and answers a mismatch in its own words. Here the API is the one validator, so an agent hears
// exactly what the API says (code, message, param), and the schemas are only described.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { VERSION } from "@/lib/foundation/version";
import { listResources, readResource, resourceTemplatesFor } from "./resources";
import type { ToolContext } from "./tool";
import { toolsFor } from "./tools";

const INSTRUCTIONS =
  "Postwerk sends transactional email. Each tool is one call (or a few) of its HTTP API, made with this session's API key: " +
  "its scopes decide which tools exist, and every call is in the workspace's API request log. " +
  "Errors are the API's own envelope ({ status, error: { code, message, param } }). " +
  "The resource postwerk://docs/api is the API's OpenAPI document.";

/** One session's server: the tools and resources the key's scopes grant, each a call of the API as that key. */
export function createMcpServer(context: ToolContext): Server {
  const server = new Server(
    { name: "postwerk", title: "Postwerk", version: VERSION },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  const tools = toolsFor(context.principal.scopes);
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema(),
      annotations: { title: tool.title, readOnlyHint: tool.readOnly, openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.find((candidate) => candidate.name === request.params.name);
    // Not granted is the same as not there: the key's scopes decide which tools exist.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `There is no tool ${request.params.name} for this API key.`);
    return tool.run(request.params.arguments ?? {}, context);
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources(context) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: resourceTemplatesFor(context.principal.scopes),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(request.params.uri, context));
  return server;
}
