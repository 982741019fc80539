import { z } from "zod";
import { invalidParameter } from "@/lib/foundation/errors";
import { assertKnownKeys, isPlainObject, zodToAppError } from "@/lib/foundation/validation.shared";
import { templateLocaleVariantSchema, type TemplateLocaleVariantInput } from "./locale-variants.shared";
import { checkedMessageTable } from "./message-table.shared";
import { versionOfIfMatch } from "./template-request";

// The body of PUT /v1/templates/:id/locales/:locale (docs/api.md#template-locales): the whole variant, as PUT
// replaces it (a field left out is inherited again), with the version it was read at to refuse a stale write.
export const putTemplateLocaleRequestSchema = templateLocaleVariantSchema.omit({ locale: true }).extend({
  version: z
    .int()
    .min(1)
    .optional()
    .describe("The template version this change was made from (its ETag); another save since → 409."),
});

export interface TemplateLocaleRequest {
  variant: Omit<TemplateLocaleVariantInput, "locale">;
  baseVersion?: number;
}

/** Checked naming the field at fault: `subject`, `messages["cart.title"]`, `version`. */
export function parsePutTemplateLocale(body: unknown, ifMatch: string | null): TemplateLocaleRequest {
  assertKnownKeys(body, putTemplateLocaleRequestSchema);
  const given = isPlainObject(body) ? body : {};
  const messages = given.messages === undefined || given.messages === null ? {} : checkedMessageTable(given.messages);
  const parsed = putTemplateLocaleRequestSchema.safeParse({ ...given, messages });
  if (!parsed.success) throw zodToAppError(parsed.error);
  const { version, ...variant } = parsed.data;
  return { variant, baseVersion: baseVersionOf(version, ifMatch) };
}

/** `version` in the body or If-Match; both, disagreeing: 400 naming `version`. */
export function baseVersionOf(version: number | undefined, ifMatch: string | null): number | undefined {
  const header = ifMatch === null ? undefined : versionOfIfMatch(ifMatch);
  if (header !== undefined && version !== undefined && header !== version) {
    throw invalidParameter("version", `version ${version} and If-Match ${ifMatch} disagree; send one of them.`);
  }
  return version ?? header;
}
