import { mcpRouter } from "../../routes";

// POST /api/mcp (MCP's Streamable HTTP transport, docs/mcp.md), through the one router like the API's
// paths: its other methods answer 405, a path below it the JSON 404.
export const dynamic = "force-dynamic";

export const GET = mcpRouter;
export const HEAD = mcpRouter;
export const POST = mcpRouter;
export const PUT = mcpRouter;
export const PATCH = mcpRouter;
export const DELETE = mcpRouter;
export const OPTIONS = mcpRouter;
