import { boolean, date, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces";

/** Per-day cohort counts kept by triggers; `shard` (the writer's pid) keeps concurrent writers off one row. */
export const overviewDayCounts = pgTable(
  "overview_day_counts",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    sandbox: boolean("sandbox").notNull(),
    shard: integer("shard").notNull(),
    accepted: integer("accepted").notNull().default(0),
    sent: integer("sent").notNull().default(0),
    delivered: integer("delivered").notNull().default(0),
    opened: integer("opened").notNull().default(0),
    clicked: integer("clicked").notNull().default(0),
    bounced: integer("bounced").notNull().default(0),
    complained: integer("complained").notNull().default(0),
    failed: integer("failed").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.day, t.sandbox, t.shard] })],
);
