import "server-only";
import { and, eq, gte, lt } from "drizzle-orm";
import { getDb } from "@/db/client";
import { suppressions } from "@/db/schema/suppressions";
import {
  emailCursorCondition,
  emailOrder,
  emailPrefixConditions,
  toEmailPage,
  type EmailPage,
  type EmailPageRequest,
} from "@/lib/domain/contacts/email-keyset";
import type { Suppression, SuppressionReason } from "./add-suppression";

export interface SuppressionFilters {
  reason?: SuppressionReason;
  /** Added (or last re-added) at or after. */
  since?: Date;
}

/** Alphabetical, keyset-paged on the (workspace_id, email) index; reason and since filter the rows as the page walks. */
export async function listSuppressionsPage(
  workspaceId: string,
  request: Omit<EmailPageRequest, "limit"> & { limit?: number } & SuppressionFilters,
): Promise<EmailPage<Suppression>> {
  const page = { ...request, limit: Math.min(Math.max(Math.trunc(request.limit ?? 50), 1), 200) };
  const prefix = request.prefix?.trim().toLowerCase() ?? "";
  const scope = and(
    eq(suppressions.workspaceId, workspaceId),
    ...(prefix ? emailPrefixConditions(suppressions.email, prefix) : []),
    request.reason ? eq(suppressions.reason, request.reason) : undefined,
    request.since ? gte(suppressions.updatedAt, request.since) : undefined,
  );
  const db = await getDb();
  const rows = await db
    .select()
    .from(suppressions)
    .where(and(scope, emailCursorCondition(suppressions.email, page)))
    .orderBy(emailOrder(suppressions.email, page))
    .limit(page.limit + 1);
  return toEmailPage(
    rows,
    page,
    async (email) =>
      (
        await db
          .select({ id: suppressions.id })
          .from(suppressions)
          .where(and(scope, lt(suppressions.email, email)))
          .limit(1)
      ).length > 0,
  );
}
