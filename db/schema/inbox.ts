import { pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, jsonb } from "./columns";
import { workspaces } from "./workspaces";

/**
 * What the built-in `local` provider delivered: the exact MIME it would have sent. One per message. Partitioned like
 * its messages by the message id; the key to the message is each partition's own, to the messages' partition of the
 * same range (docs/architecture.md#partitioned-by-day).
 */
export const localInbox = pgTable("local_inbox", {
  emailMessageId: text("email_message_id").primaryKey(),
  workspaceId: text("workspace_id")
    .notNull()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  envelopeFrom: text("envelope_from").notNull(),
  envelopeTo: jsonb("envelope_to").$type<string[]>().notNull(),
  mime: text("mime").notNull(),
  createdAt: createdAt(),
});
