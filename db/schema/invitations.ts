import { index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, ts } from "./columns";
import { MEMBERSHIP_ROLES, users, workspaces } from "./workspaces";

/** A pending invitation to a workspace, accepted through an emailed link; only a SHA-256 of its token is kept. */
export const invitations = pgTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** Lower-cased address the invitation was sent to. */
    email: text("email").notNull(),
    role: text("role", { enum: MEMBERSHIP_ROLES }).notNull().default("MEMBER"),
    tokenHash: text("token_hash").notNull().unique(),
    invitedByUserId: text("invited_by_user_id").references(() => users.id, { onDelete: "set null" }),
    expiresAt: ts("expires_at").notNull(),
    acceptedAt: ts("accepted_at"),
    revokedAt: ts("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [index("invitations_workspace_idx").on(t.workspaceId, t.createdAt)],
);
