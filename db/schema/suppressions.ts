import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { unsubscribeGroups } from "./contacts";
import { workspaces } from "./workspaces";

export const SUPPRESSION_REASONS = ["HARD_BOUNCE", "COMPLAINT", "MANUAL"] as const;

/** Later live sends to these addresses are suppressed (docs/api.md#decided-unsubscribe-groups-suppression-contacts). */
export const suppressions = pgTable(
  "suppressions",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** Lower-cased address. */
    email: text("email").notNull(),
    reason: text("reason", { enum: SUPPRESSION_REASONS }).notNull(),
    emailMessageId: text("email_message_id"),
    detail: text("detail"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("suppressions_workspace_email_idx").on(t.workspaceId, t.email)],
);

/** A contact's unsubscribe from one group (the /u/<token> page or the RFC 8058 one-click POST). */
export const groupUnsubscribes = pgTable(
  "group_unsubscribes",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    groupId: text("group_id")
      .notNull()
      .references(() => unsubscribeGroups.id, { onDelete: "cascade" }),
    /** Lower-cased address. */
    email: text("email").notNull(),
    emailMessageId: text("email_message_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("group_unsubscribes_group_email_idx").on(t.workspaceId, t.groupId, t.email),
    index("group_unsubscribes_email_idx").on(t.workspaceId, t.email),
  ],
);
