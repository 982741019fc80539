import { sql } from "drizzle-orm";
import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { workspaces } from "./workspaces";

export const contacts = pgTable(
  "contacts",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** Lower-cased address. */
    email: text("email").notNull(),
    name: text("name"),
    /** Canonical BCP 47 tag the contact's mail renders in when a send names none (docs/templates.md#where-the-locale-comes-from). */
    locale: text("locale"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("contacts_workspace_email_idx").on(t.workspaceId, t.email),
    // The Contacts page's name-prefix search (lib/domain/contacts/search-contacts.ts): lower(name) LIKE 'p%'.
    index("contacts_workspace_name_idx").on(t.workspaceId, sql`lower(${t.name}) text_pattern_ops`),
  ],
);

export const unsubscribeGroups = pgTable(
  "unsubscribe_groups",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    name: text("name").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("unsubscribe_groups_workspace_key_idx").on(t.workspaceId, t.key)],
);
