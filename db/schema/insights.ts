import { boolean, date, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces";

/**
 * The Overview's per-day counts (docs/dashboard/insights.md#how-the-overview-stays-flat): for each
 * workspace, UTC creation day and live/sandbox, how many messages were accepted and how many of them
 * have been sent, delivered, opened, … — the cohort counts getOverview used to compute from
 * email_messages. Kept by database triggers on email_messages in the transaction of each insert and
 * update, so they are exact at every commit. `shard` is the writing backend's pid: a backend runs one
 * transaction at a time, so concurrent transactions never update the same row (no hot row); the
 * reader sums the shards. Maintenance folds the shards of past days into shard 0.
 */
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
