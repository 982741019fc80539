import "server-only";
import { z } from "zod";
import { AppError, invalidParameter } from "@/lib/foundation/errors";
import { assertKnownKeys, zodToAppError } from "@/lib/foundation/validation.shared";
import type { templates } from "@/db/schema";
import {
  templateContentFields,
  templateContentSchema,
  type TemplateContent,
  type TemplateContentInput,
} from "./schemas";

// The API's template writes (docs/api.md#templates): PATCH is any subset over the current template, with the version
// it was read at (`version` or If-Match) to refuse a stale write.
export const createTemplateRequestSchema = templateContentFields;

export const updateTemplateRequestSchema = templateContentFields.partial().extend({
  version: z
    .int()
    .min(1)
    .optional()
    .describe("The version this change was made from (as read, or the ETag); another save since → 409."),
  defaultLocale: z
    .string()
    .optional()
    .describe(
      "The locale of the template's own content (BCP 47, canonicalised); the last link of every fallback chain.",
    ),
});

type TemplateRow = typeof templates.$inferSelect;

const withoutNulls = (body: unknown) =>
  body !== null && typeof body === "object" && !Array.isArray(body)
    ? Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null))
    : body;

export function parseNewTemplate(body: unknown): TemplateContent {
  assertKnownKeys(body, createTemplateRequestSchema);
  const parsed = templateContentSchema.safeParse(withoutNulls(body));
  if (!parsed.success) throw zodToAppError(parsed.error);
  return parsed.data;
}

export interface TemplateChanges {
  /** The new content: the fields sent over the current template (given the locked row). */
  content: (current: TemplateRow) => TemplateContentInput;
  /** The version the caller read; undefined: last write wins. */
  baseVersion?: number;
  /** A new default locale (as given: the save canonicalises it), or undefined to keep it. */
  defaultLocale?: string;
}

export function parseTemplateChanges(body: unknown, ifMatch: string | null): TemplateChanges {
  assertKnownKeys(body, updateTemplateRequestSchema);
  const given = withoutNulls(body);
  const parsed = updateTemplateRequestSchema.safeParse(given);
  if (!parsed.success) throw zodToAppError(parsed.error);
  const { version, ...fields } = given as Record<string, unknown>;
  const headerVersion = ifMatch === null ? undefined : versionOfIfMatch(ifMatch);
  if (headerVersion !== undefined && parsed.data.version !== undefined && headerVersion !== parsed.data.version) {
    throw invalidParameter("version", `version ${String(version)} and If-Match ${ifMatch} disagree; send one of them.`);
  }
  const known = Object.fromEntries(Object.entries(fields).filter(([key]) => key in templateContentFields.shape));
  return {
    baseVersion: parsed.data.version ?? headerVersion,
    defaultLocale: parsed.data.defaultLocale,
    content: (current) => ({
      name: current.name,
      subject: current.subject,
      bodyHtml: current.bodyHtml,
      bodyText: current.bodyText,
      fromAddress: current.fromAddress,
      replyTo: current.replyTo,
      strict: current.strict,
      kind: current.kind,
      blocks: current.blocks,
      ...known,
    }),
  };
}

/** `"3"`, `W/"3"` or `3`: the version an ETag of GET /v1/templates/:id names. */
export function versionOfIfMatch(header: string): number {
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  const version = match ? Number(match[1]) : 0;
  if (version < 1)
    throw new AppError(
      "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      `If-Match must be the template's ETag ("3"), got ${header.slice(0, 40)}.`,
      { param: "If-Match" },
    );
  return version;
}

export const templateEtag = (template: { version: number }) => `"${template.version}"`;

/** A version in a path: only a plain decimal ("1e1" or " 2" are unknown versions, not 10 and 2). */
export const versionNumber = (raw: string) => (/^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN);
