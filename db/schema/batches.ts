import { boolean, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { workspaces } from "./workspaces";

/** A batch send; its messages carry batch_id and their position (batch_index) in request order. */
export const batches = pgTable(
  "batches",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    sandbox: boolean("sandbox").notNull(),
    count: integer("count").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("batches_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id)],
);
