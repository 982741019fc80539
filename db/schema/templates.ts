import { boolean, index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { workspaces } from "./workspaces";

export const templates = pgTable(
  "templates",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    subject: text("subject").notNull(),
    bodyHtml: text("body_html").notNull(),
    bodyText: text("body_text"),
    /** Default sender (Liquid allowed), used when a send gives no `from`. */
    fromAddress: text("from_address"),
    replyTo: text("reply_to"),
    /** Strict: a variable missing from the data is a TEMPLATE_RENDER_ERROR instead of "". */
    strict: boolean("strict").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("templates_workspace_idx").on(t.workspaceId, t.createdAt)],
);
