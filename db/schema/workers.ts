import { pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/**
 * One row per worker process (`hostname:pid`), stamped every 15 s while its delivery loops are alive: readiness tells
 * a stopped worker from a busy one across processes (lib/records/queue/worker-heartbeats.ts). Not tenant data.
 */
export const workerHeartbeats = pgTable("worker_heartbeats", {
  id: text("id").primaryKey(),
  startedAt: ts("started_at").notNull(),
  seenAt: ts("seen_at").notNull(),
});
