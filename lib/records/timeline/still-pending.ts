import "server-only";
import { sql } from "drizzle-orm";
import { emailMessages } from "@/db/schema/index";

/**
 * "The message is still PENDING", for the statements that name their messages by id: delivery's
 * batch read, its last check and hand-off mark (lib/delivery/pipeline/1-load-batch.ts, claims.ts) and the group
 * record of SENT (record-event.ts). Written `(status = 'PENDING') is true`, which keeps the same rows
 * (status is NOT NULL) but which no index answers, so the planner reads the named rows by primary key
 * and checks their status one by one. With a plain `status = 'PENDING'` the planner may answer it from
 * email_messages_status_idx instead whenever its statistics say few messages wait (taken in a quiet
 * hour), and then each statement reads the index entry of every PENDING message: what a scheduled
 * release is, thousands PENDING at once (docs/benchmarks.md#scheduled-sends-issue-18-2026-11-25).
 */
export const stillPending = sql`(${emailMessages.status} = 'PENDING') is true`;
