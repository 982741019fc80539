import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { columnList, decodeRows } from "@/db/column-rows";
import { compileOnce, executeCompiled } from "@/db/execute-prepared";
import { emailMessages as m } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";
import { MESSAGE_API_COLUMNS, type ApiMessageRow } from "./serialize";

/**
 * GET /v1/email_messages/:id's read: the columns the API returns (never the bodies, attachments or
 * headers), compiled once and run as a prepared statement: one round trip, parsed and planned once
 * per connection, where Drizzle's builder cost more of the request's CPU than the read itself.
 */
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
