import type { AuditActorType } from "@/db/schema/audit";
import type { Actor } from "@/lib/foundation/access/actor";

/** Who made a change (docs/audit.md): a dashboard user, an API key, or the system itself (the CLI, a job). */
export interface AuditActor {
  type: AuditActorType;
  /** usr_… or key_…; null for the system. */
  id: string | null;
  /** A user's email, a key's name, "CLI", "Postwerk": readable after the user or key is gone. */
  label: string | null;
  ip?: string | null;
  userAgent?: string | null;
}

/** The operator at the command line (lib/entry/cli): a shell on the server is not a signed-in user. */
export const AUDIT_CLI_ACTOR: AuditActor = { type: "SYSTEM", id: null, label: "CLI" };

/** Postwerk itself: the automatic pause, the seed, a job. */
export const AUDIT_SYSTEM_ACTOR: AuditActor = { type: "SYSTEM", id: null, label: "Postwerk" };

export function userActor(
  user: { id: string; email: string },
  client: { ip?: string | null; userAgent?: string | null } = {},
): AuditActor {
  return { type: "USER", id: user.id, label: user.email, ...client };
}

export function apiKeyActor(
  key: { apiKeyId: string; name: string },
  client: { ip?: string | null; userAgent?: string | null } = {},
): AuditActor {
  return { type: "API_KEY", id: key.apiKeyId, label: key.name, ...client };
}

/** Its own audit actor when the caller set one, else the user by id; the CLI's "cli" user is the CLI. */
export function auditActorOf(actor: Actor): AuditActor {
  if (actor.audit) return actor.audit;
  return actor.userId === "cli" ? AUDIT_CLI_ACTOR : { type: "USER", id: actor.userId, label: null };
}

/** The given actor, else the user by id, else the system (CLI, seed, tests). */
export function actorOr(actor: AuditActor | undefined, userId: string | null | undefined): AuditActor {
  return actor ?? (userId ? { type: "USER", id: userId, label: null } : AUDIT_SYSTEM_ACTOR);
}
