import "server-only";
import type { ApiPrincipal } from "@/lib/api-keys/authenticate-api-key";
import { apiKeyActor, type AuditActor } from "@/lib/audit/actor";
import { clientIp } from "./with-api-key";

/** Who a /v1 change is audited as: the API key, with the caller's address and user agent. */
export function apiActor(principal: ApiPrincipal, request: Request): AuditActor {
  return apiKeyActor(principal, { ip: clientIp(request), userAgent: request.headers.get("user-agent") });
}
