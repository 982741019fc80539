import type { Actor } from "@/lib/foundation/access/actor";
import type { ApiPrincipal } from "@/lib/domain/api-keys/authenticate-api-key";
import { apiActor } from "./api-actor";

/**
 * The role-checked Actor that the workspace's admin use cases take (lib/foundation/access/actor.ts), for an API key:
 * keys have no role, their scope is the check (withApiKey already required workspace:write), so the
 * key acts as an admin of its own workspace, and the audit log names the key.
 */
export function apiAdminActor(principal: ApiPrincipal, request: Request): Actor {
  return {
    userId: principal.apiKeyId,
    workspaceId: principal.workspaceId,
    role: "ADMIN",
    audit: apiActor(principal, request),
  };
}
