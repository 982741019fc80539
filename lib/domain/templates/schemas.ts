import { z } from "zod";

// Pure, so client forms share it; Liquid is checked in the use case, which names line and column.
export const TEMPLATE_NAME_MAX = 200;
export const TEMPLATE_BODY_MAX = 512_000;

const optionalLine = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((value) => (value == null || value.trim() === "" ? null : value));

/** The fields alone: the API's PATCH makes each optional (lib/domain/templates/template-request.ts). */
export const templateContentFields = z.object({
  name: z.string().trim().min(1, "must not be empty").max(TEMPLATE_NAME_MAX),
  subject: z.string().trim().min(1, "must not be empty").max(2_000),
  bodyHtml: z.string().max(TEMPLATE_BODY_MAX),
  bodyText: z
    .string()
    .max(TEMPLATE_BODY_MAX)
    .nullish()
    .transform((value) => (value == null || value.trim() === "" ? null : value)),
  fromAddress: optionalLine(1_000),
  replyTo: optionalLine(5_000),
  strict: z.boolean().default(false),
  kind: z.enum(["code", "blocks"]).default("code"),
  /** The EmailBuilder.js document of a blocks template (its shape is checked in blocks.shared.ts). */
  blocks: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((value) => value ?? null),
});

/** A blocks template keeps its block document: without one the editor could not open it again. */
export const templateContentSchema = templateContentFields.superRefine((content, context) => {
  const root = content.blocks?.root;
  if (content.kind === "blocks" && (typeof root !== "object" || root === null)) {
    context.addIssue({
      code: "custom",
      path: ["blocks"],
      message: 'a blocks template needs its block document, with a "root" block',
    });
  }
});

export type TemplateContentInput = z.input<typeof templateContentSchema>;
export type TemplateContent = z.output<typeof templateContentSchema>;

export const TEMPLATE_SCENARIO_NAME_MAX = 100;
export const TEMPLATE_SCENARIO_VARIABLES_MAX_BYTES = 256 * 1024;
export const TEMPLATE_SCENARIOS_MAX = 50;

export const templateScenarioSchema = z.object({
  name: z.string().trim().min(1, "must not be empty").max(TEMPLATE_SCENARIO_NAME_MAX),
  variables: z
    .record(z.string(), z.unknown(), { error: "must be a JSON object" })
    .refine(
      (value) => JSON.stringify(value).length <= TEMPLATE_SCENARIO_VARIABLES_MAX_BYTES,
      "must be at most 256 KB as JSON",
    ),
});

/** The body of POST /v1/templates/:id/render (optional). */
export const renderTemplateSchema = z.object({
  variables: z.record(z.string(), z.unknown()).optional().describe("Values for the template's Liquid variables."),
  locale: z
    .string()
    .optional()
    .describe("A BCP 47 tag: the variant along the fallback chain (fr-CA → fr → the default). Malformed → 400."),
});

export const checkTemplateContentSchema = z.object({
  variables: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("The data to render with; omitted: each locale's sample data, else the template's first scenario."),
  locale: z
    .string()
    .optional()
    .describe("One locale along its fallback chain; omitted: the default locale and every variant."),
  groupMail: z
    .boolean()
    .optional()
    .describe("Mail of an unsubscribe group: a missing {{ unsubscribeUrl }} is an error, not a note."),
});

export type TemplateScenarioInput = z.input<typeof templateScenarioSchema>;
