import "server-only";
import { and, eq, lt } from "drizzle-orm";
import { getDb } from "@/db/client";
import { suppressions } from "@/db/schema/suppressions";
import { emailCursorCondition, emailOrder, emailPrefixConditions, toEmailPage, type EmailPage, type EmailPageRequest } from "@/lib/contacts/email-keyset";
import type { Suppression } from "./add-suppression";

/**
 * One page of the suppression list for the dashboard: alphabetical, optionally by address prefix,
 * keyset-paged on the (workspace_id, email) unique index (the CLI's listSuppressions stays as it is).
 */
export async function listSuppressionsPage(workspaceId: string, request: Omit<EmailPageRequest, "limit"> & { limit?: number }): Promise<EmailPage<Suppression>> {
  const page = { ...request, limit: Math.min(Math.max(Math.trunc(request.limit ?? 50), 1), 200) };
  const prefix = request.prefix?.trim().toLowerCase() ?? "";
  const scope = and(eq(suppressions.workspaceId, workspaceId), ...(prefix ? emailPrefixConditions(suppressions.email, prefix) : []));
  const db = await getDb();
  const rows = await db
    .select()
    .from(suppressions)
    .where(and(scope, emailCursorCondition(suppressions.email, page)))
    .orderBy(emailOrder(suppressions.email, page))
    .limit(page.limit + 1);
  return toEmailPage(rows, page, async (email) => (await db.select({ id: suppressions.id }).from(suppressions).where(and(scope, lt(suppressions.email, email))).limit(1)).length > 0);
}
