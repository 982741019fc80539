import { apiActor } from "@/lib/entry/api/api-actor";
import { created, list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { createConnection } from "@/lib/domain/providers/create-connection";
import { listConnections } from "@/lib/domain/providers/get-connection";
import { createConnectionSchema } from "@/lib/domain/providers/schemas";
import { serializeConnection } from "@/lib/domain/providers/serialize-connection";
import { assertKnownKeys } from "@/lib/foundation/validation.shared";

// GET /v1/providers – the workspace's own connections by name (at most 50: one page); `default` is the instance's
export const GET = withApiKey({ scope: "providers:write", body: "none" }, async ({ principal }) => {
  const connections = await listConnections(principal.workspaceId);
  return list({ count: connections.length }, connections.map(serializeConnection));
});

// POST /v1/providers – a connection: smtp, resend, ses, simulator or local; secrets are sealed and never returned
export const POST = withApiKey(
  { scope: "providers:write", body: "json", maxBytes: 32 * 1024 },
  async ({ principal, request, body }) => {
    assertKnownKeys(body, createConnectionSchema);
    const connection = await createConnection(principal.workspaceId, body, apiActor(principal, request));
    return created(serializeConnection(connection));
  },
);
