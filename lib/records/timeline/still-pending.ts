import "server-only";
import { sql } from "drizzle-orm";
import { emailMessages } from "@/db/schema/index";

/**
 * For statements naming messages by id: no index answers this form, so the planner reads them by primary key, not
 * every PENDING entry of the status index (docs/benchmarks.md#scheduled-sends-issue-18-2026-11-25).
 */
export const stillPending = sql`(${emailMessages.status} = 'PENDING') is true`;
