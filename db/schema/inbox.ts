import { pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, jsonb } from "./columns";
import { emailMessages } from "./messages";
import { workspaces } from "./workspaces";

/** What the built-in `local` provider delivered: the exact MIME it would have sent. One per message. */
export const localInbox = pgTable("local_inbox", {
  emailMessageId: text("email_message_id")
    .primaryKey()
    .references(() => emailMessages.id, { onDelete: "cascade" }),
  workspaceId: text("workspace_id")
    .notNull()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  envelopeFrom: text("envelope_from").notNull(),
  envelopeTo: jsonb("envelope_to").$type<string[]>().notNull(),
  mime: text("mime").notNull(),
  createdAt: createdAt(),
});
