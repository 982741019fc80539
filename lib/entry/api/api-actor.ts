import "server-only";
import type { ApiPrincipal } from "@/lib/domain/api-keys/authenticate-api-key";
import { apiKeyActor, type AuditActor } from "@/lib/records/audit/actor";
import { clientFromHeaders } from "@/lib/domain/tracking/client-info";

/** The audit log's actor for a change made through /v1: the API key (by id and name), with the caller's IP and user agent. */
export function apiActor(principal: ApiPrincipal, request: Request): AuditActor {
  const { ip, userAgent } = clientFromHeaders(request.headers);
  return apiKeyActor(principal, { ip: ip === "unknown" ? null : ip, userAgent: userAgent || null });
}
