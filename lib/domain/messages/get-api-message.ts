import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { columnList, decodeRows } from "@/db/column-rows";
import { compileOnce, executeCompiled } from "@/db/execute-prepared";
import { emailMessages as m } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";
import { MESSAGE_API_COLUMNS, type ApiMessageRow } from "./serialize";

// Compiled once and prepared: Drizzle's builder cost more than the read itself (docs/benchmarks.md#reads-in-one-round-trip-issue-20-2026-11-27-session-13).
const apiMessageById = compileOnce(
  sql`select ${columnList(MESSAGE_API_COLUMNS)} from ${m} where ${m.workspaceId} = ${sql.placeholder("workspaceId")} and ${m.id} = ${sql.placeholder("id")}`,
);

/** Tenant-scoped: an unknown id and another workspace's id give the same 404. */
export async function getApiMessageOrThrow(workspaceId: string, messageId: string): Promise<ApiMessageRow> {
  const result = await executeCompiled(await getDb(), apiMessageById, { workspaceId, id: messageId });
  const [message] = decodeRows<ApiMessageRow>(result, MESSAGE_API_COLUMNS);
  if (!message) throw notFound(`Email message ${messageId}`, "id");
  return message;
}
