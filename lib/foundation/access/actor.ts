import type { AuditActor } from "@/lib/records/audit/actor";
import { forbidden } from "@/lib/foundation/errors";
import { hasRole, ROLE_LABELS, type Role } from "./roles.shared";

/**
 * Who is acting, as the dashboard context established it (membership re-read from the database on
 * every request). Admin use cases take it and check the role themselves, so a server action that
 * forgot `requireDashboard("ADMIN")` still cannot let a Member through.
 */
export interface Actor {
  userId: string;
  workspaceId: string;
  role: Role;
  /** How the audit log names this actor (email, IP, user agent); absent: the user id alone (lib/records/audit/actor.ts auditActorOf). */
  audit?: AuditActor;
}

export function assertActorRole(actor: Actor, atLeast: Role, what: string): void {
  if (!hasRole(actor.role, atLeast)) throw forbidden(`Only ${ROLE_LABELS[atLeast].toLowerCase()}s may ${what}.`);
}

/** Owners are the only ones who may make, unmake or remove owners. */
export function assertMayGrant(actor: Actor, role: Role, what: string): void {
  if (role === "OWNER" && actor.role !== "OWNER") throw forbidden(`Only owners may ${what}.`);
}
