import "server-only";
import { headers } from "next/headers";
import { userActor, type AuditActor } from "@/lib/records/audit/actor";
import { clientFromHeaders } from "@/lib/domain/tracking/client-info";

/** The signed-in user as the audit log's actor, with the request's IP and user agent (behind the proxy, X-Forwarded-For). */
export async function dashboardActor(user: { id: string; email: string }): Promise<AuditActor> {
  const client = clientFromHeaders(await headers());
  return userActor(user, { ip: client.ip === "unknown" ? null : client.ip, userAgent: client.userAgent || null });
}
