import { index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, jsonb } from "./columns";
import { workspaces } from "./workspaces";

export type AuditActorType = "USER" | "API_KEY" | "SYSTEM";

/** Append-only audit log (docs/audit.md); actor ids are text, not foreign keys, to outlive a deleted user or key. */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    actorType: text("actor_type").$type<AuditActorType>().notNull(),
    /** The user id (usr_…) or API key id (key_…); null for the system. */
    actorId: text("actor_id"),
    /** What the actor was called then (a user's email, a key's name), for a reader after deletions. */
    actorLabel: text("actor_label"),
    /** `<resource>.<verb>`, e.g. `api_key.create`, `domain.verify`, `workspace.pause`. */
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    /** The changed fields before and after (never secrets); null for a creation's before or a deletion's after. */
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_events_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id),
    index("audit_events_created_idx").on(t.createdAt),
  ],
);
