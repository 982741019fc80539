import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { columnList, decodeRows } from "@/db/column-rows";
import { compileOnce, executeCompiled } from "@/db/execute-prepared";
import { emailMessages as m } from "@/db/schema";
import { notFoundOrPurged } from "./not-found-or-purged";
import { MESSAGE_API_COLUMNS, type ApiMessageRow } from "./serialize";

// Compiled once and prepared: Drizzle's builder cost more than the read itself (docs/benchmarks.md#reads-in-one-round-trip-issue-20-2026-11-27-session-13).
const apiMessageById = compileOnce(
  sql`select ${columnList(MESSAGE_API_COLUMNS)} from ${m} where ${m.workspaceId} = ${sql.placeholder("workspaceId")} and ${m.id} = ${sql.placeholder("id")}`,
);

/** Tenant-scoped: an unknown id and another workspace's id give the same 404 (410 past the retention window). */
export async function getApiMessageOrThrow(workspaceId: string, messageId: string): Promise<ApiMessageRow> {
  const db = await getDb();
  const result = await executeCompiled(db, apiMessageById, { workspaceId, id: messageId });
  const [message] = decodeRows<ApiMessageRow>(result, MESSAGE_API_COLUMNS);
  if (!message) throw await notFoundOrPurged(db, workspaceId, messageId, "Email message");
  return message;
}
