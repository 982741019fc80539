import { z } from "zod";
import { SUPPRESSION_REASONS } from "@/db/schema/suppressions";
import type { EmailPage } from "@/lib/domain/contacts/email-keyset";
import { invalidParameter } from "@/lib/foundation/errors";
import { parseDateTime, parseLimit, queryParam } from "@/lib/foundation/pagination";
import type { Suppression, SuppressionReason } from "./add-suppression";
import type { SuppressionFilters } from "./list-suppressions-page";

export const addSuppressionApiSchema = z.object({
  email: z
    .string({ message: "email must be one address, e.g. ann@example.org." })
    .max(320)
    .describe("The address to suppress (stored lower-cased)."),
  reason: z
    .enum(SUPPRESSION_REASONS)
    .optional()
    .describe(
      "MANUAL (the default); HARD_BOUNCE or COMPLAINT when importing a list from elsewhere. An address already listed for a complaint stays a complaint.",
    ),
  detail: z.string().max(500).nullable().optional().describe("A note shown with the entry."),
});

export const removeSuppressionApiSchema = z.object({
  force: z.boolean().optional().describe("Required (true) to remove an address suppressed for a complaint."),
  reason: z
    .string()
    .max(500)
    .nullable()
    .optional()
    .describe("Why it is removed: kept in the audit log with who removed it. Required with force for a complaint."),
});

export const SUPPRESSION_PAGE_MAX = 200;

export type SuppressionListQuery = SuppressionFilters & {
  prefix?: string;
  after?: string;
  before?: string;
  limit: number;
};

/** GET /v1/suppressions' query: reason, since (ISO 8601), prefix (of the address), limit, and the address cursors after/before. */
export function parseSuppressionListQuery(params: URLSearchParams): SuppressionListQuery {
  const query: SuppressionListQuery = { limit: parseLimit(queryParam(params, "limit"), SUPPRESSION_PAGE_MAX) };
  const reason = queryParam(params, "reason");
  if (reason) {
    if (!SUPPRESSION_REASONS.includes(reason as SuppressionReason))
      throw invalidParameter("reason", `reason must be one of ${SUPPRESSION_REASONS.join(", ")}.`);
    query.reason = reason as SuppressionReason;
  }
  const since = queryParam(params, "since");
  if (since) query.since = parseDateTime(since, "since");
  for (const name of ["prefix", "after", "before"] as const) {
    const value = queryParam(params, name);
    if (value === null || value === "") continue;
    if (value.length > 320) throw invalidParameter(name, `${name} must be at most 320 characters.`);
    query[name] = value.toLowerCase();
  }
  if (query.after && query.before) throw invalidParameter("before", "Give after or before, not both.");
  return query;
}

export function serializeSuppression(row: Suppression) {
  return {
    id: row.id,
    type: "Suppression" as const,
    email: row.email,
    reason: row.reason,
    emailMessageId: row.emailMessageId,
    detail: row.detail,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function suppressionListMeta(page: EmailPage<Suppression>, limit: number) {
  return { limit, nextAfter: page.nextAfter, previousBefore: page.previousBefore };
}
