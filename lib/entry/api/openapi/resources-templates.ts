import { z } from "zod";
import { TEMPLATE_KINDS } from "@/db/schema";
import { templateResource } from "./resources";

/** The template management resources (docs/api.md#templates), checked against their serializers like the others. */
const timestamp = z.iso.datetime().describe("ISO 8601 UTC with milliseconds.");

export const templateVersionSummary = z.object({
  type: z.literal("TemplateVersion"),
  templateId: z.string(),
  version: z.int(),
  name: z.string().describe("The template's name in that version."),
  createdAt: timestamp.describe("When it was saved."),
  restoredFromVersion: z.int().nullable().describe("The version this one restored, if it was a restore."),
  author: z
    .object({ name: z.string().nullable(), email: z.string() })
    .nullable()
    .describe("The dashboard user who saved it; null for the API, the CLI, or a removed user."),
});

export const templateVersionResource = templateVersionSummary.omit({ author: true }).extend({
  rawSubject: z.string(),
  rawBodyHtml: z.string(),
  rawBodyText: z.string().nullable(),
  kind: z.enum(TEMPLATE_KINDS),
  blocks: templateResource.shape.blocks,
  fromAddress: z.string().nullable(),
  replyTo: z.string().nullable(),
  strict: z.boolean(),
  defaultLocale: z.string(),
  locales: z.array(z.string()).describe("The locales with a row at this version: a restore brings them back together."),
});

export const templateVersionListMeta = z.object({ count: z.int(), currentVersion: z.int() });

export const templateScenarioResource = z.object({
  id: z.string().describe('A "tpls_" prefix and 16 base62 characters.'),
  type: z.literal("TemplateScenario"),
  createdAt: timestamp,
  updatedAt: timestamp,
  templateId: z.string(),
  name: z.string().describe("Unique per template."),
  variables: z.record(z.string(), z.unknown()).describe("The sample data: a JSON object, as a send's variables."),
});

export const countMeta = z.object({ count: z.int() });

const problem = z.object({
  field: z.enum(["subject", "bodyHtml", "bodyText", "fromAddress", "replyTo"]),
  line: z.int().nullable(),
  column: z.int().nullable(),
  message: z.string(),
});

export const templateValidationResource = z.object({
  type: z.literal("TemplateValidation"),
  valid: z.boolean().describe("No field has a problem."),
  problems: z.array(problem).describe("Every field's Liquid error (not only the first), with its line and column."),
  missingVariables: z
    .array(z.string())
    .describe("Variables the draft reads that the given variables lack (a strict template would refuse them)."),
  rendered: z
    .object({
      subject: z.string(),
      bodyHtml: z.string(),
      bodyText: z.string(),
      fromAddress: z.string().nullable(),
      replyTo: z.string().nullable(),
    })
    .nullable()
    .describe("The draft rendered with the variables, as a send would; null when there are problems."),
});

/** A template's locales (docs/api.md#template-locales). */
export const templateLocaleSummary = z.object({
  type: z.literal("TemplateLocale"),
  templateId: z.string(),
  locale: z.string().describe("The canonical BCP 47 tag (fr-CA, zh-Hant)."),
  isDefault: z.boolean().describe("The template's default locale: its content is the template's own."),
  overrides: z
    .array(z.enum(["subject", "bodyHtml", "bodyText", "blocks"]))
    .describe("The content fields this locale sets; the others come from the next locale of its chain."),
  messageCount: z.int().describe("Keys in its own message table."),
  fallsBackForMissingKeys: z
    .boolean()
    .describe("Its missing keys render the default locale's text; the missing-translation lint lets it through."),
  missingKeys: z
    .array(z.string())
    .describe("Keys its effective content uses that its table (with its language's) lacks, as the content is now."),
});

export const templateLocaleResource = templateLocaleSummary.extend({
  templateVersion: z.int().describe("The template's version, also the ETag (for If-Match)."),
  subject: z.string().nullable().describe("null: inherited along the chain."),
  bodyHtml: z.string().nullable(),
  bodyText: z.string().nullable(),
  blocks: z.record(z.string(), z.unknown()).nullable(),
  messages: z.record(z.string(), z.string()).describe("Flat keys to ICU message texts."),
  sampleData: z.record(z.string(), z.unknown()).nullable(),
});

export const templateLocaleListMeta = z.object({
  count: z.int(),
  defaultLocale: z.string(),
  templateVersion: z.int(),
});

export const deletedTemplateLocale = z.object({
  templateId: z.string(),
  locale: z.string(),
  deleted: z.literal(true),
});

export const messageTable = z
  .record(z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/), z.string())
  .describe(
    'One locale\'s translations: flat keys to ICU message texts, as {"cart.items": "{count, plural, one {# item} other {# items}}"}.',
  );
