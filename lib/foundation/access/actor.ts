import type { AuditActor } from "@/lib/records/audit/actor";
import { forbidden } from "@/lib/foundation/errors";
import { hasRole, ROLE_LABELS, type Role } from "./roles.shared";

/** Who is acting. Admin use cases check its role themselves, so a server action missing `requireDashboard("ADMIN")` still stops a Member. */
export interface Actor {
  userId: string;
  workspaceId: string;
  role: Role;
  /** How the audit log names this actor; absent: by user id alone. */
  audit?: AuditActor;
}

export function assertActorRole(actor: Actor, atLeast: Role, what: string): void {
  if (!hasRole(actor.role, atLeast)) throw forbidden(`Only ${ROLE_LABELS[atLeast].toLowerCase()}s may ${what}.`);
}

/** Owners are the only ones who may make, unmake or remove owners. */
export function assertMayGrant(actor: Actor, role: Role, what: string): void {
  if (role === "OWNER" && actor.role !== "OWNER") throw forbidden(`Only owners may ${what}.`);
}
