import { z } from "zod";
import { AppError } from "@/lib/foundation/errors";
import { renderLine } from "@/lib/domain/templates/render.shared";
import { dropNulls, formatParam } from "@/lib/foundation/validation.shared";
import { tagsInputSchema } from "@/lib/domain/messages/tags.shared";
import { canonicalLocale } from "@/lib/domain/templates/locale-tag.shared";

// Pure, so client forms share it; checks needing the database are in create-workflow.ts.
export const WORKFLOW_KEY_PATTERN = /^[a-zA-Z0-9_.:-]{1,100}$/;
export const WAIT_MIN_SECONDS = 1;
export const WAIT_MAX_SECONDS = 90 * 24 * 3600;
export const MAX_WORKFLOW_STEPS = 50;

/** Address fields are Liquid over the run's variables: refuse a source that does not even parse. */
const liquidLine = (max: number) =>
  z
    .string()
    .max(max)
    .superRefine((source, context) => {
      try {
        renderLine(source, {}, "field");
      } catch (error) {
        const reason = error instanceof AppError ? error.message.replace(/^Template field: /, "") : String(error);
        context.addIssue({ code: "custom", message: `is not valid Liquid (${reason})` });
      }
    });

/** A step's `locale` that takes the recipient contact's locale even when the run names one. */
export const STEP_LOCALE_CONTACT = "contact";

export const sendEmailStepSchema = z.object({
  type: z.literal("sendEmail"),
  templateId: z.string().min(1, "must name a template").max(64),
  to: liquidLine(5000).refine((value) => value.trim() !== "", "must not be empty"),
  cc: liquidLine(5000).optional(),
  bcc: liquidLine(5000).optional(),
  from: liquidLine(1000).optional(),
  replyTo: liquidLine(5000).optional(),
  groupKey: z.string().min(1).max(255).optional(),
  locale: liquidLine(200)
    .superRefine((value, context) => {
      const result = canonicalLocale(value);
      if (value === STEP_LOCALE_CONTACT || /{[{%]/.test(value) || result.ok) return;
      context.addIssue({ code: "custom", message: `must be a locale, Liquid or "contact": ${result.reason}` });
    })
    .optional()
    .describe(
      "The message's locale (docs/templates.md#where-the-locale-comes-from): a BCP 47 tag (\"fr\"), Liquid over the run's variables (\"{{ user.language }}\"), or \"contact\" (the recipient contact's, ignoring the run's variables.locale). Omitted: the run's variables.locale, else the contact's.",
    ),
});

export const waitStepSchema = z.object({
  type: z.literal("wait"),
  seconds: z
    .number({ error: "must be a number of seconds" })
    .int("must be a whole number of seconds")
    .min(WAIT_MIN_SECONDS, `must be at least ${WAIT_MIN_SECONDS} second`)
    .max(WAIT_MAX_SECONDS, `must be at most ${WAIT_MAX_SECONDS} seconds (90 days)`),
});

export const workflowStepSchema = z.discriminatedUnion("type", [sendEmailStepSchema, waitStepSchema], {
  error: (issue) => (issue.code === "invalid_union" ? 'type must be "sendEmail" or "wait"' : undefined),
});

export const workflowDefinitionSchema = z.object({
  name: z.string().trim().min(1, "must not be empty").max(200),
  key: z.string().regex(WORKFLOW_KEY_PATTERN, "must be 1–100 letters, digits or _ . : -").optional(),
  enabled: z.boolean().optional(),
  steps: z
    .array(workflowStepSchema)
    .min(1, "must hold at least one step")
    .max(MAX_WORKFLOW_STEPS, `may hold at most ${MAX_WORKFLOW_STEPS} steps`)
    .refine((steps) => steps.some((step) => step.type === "sendEmail"), "must hold at least one sendEmail step")
    .refine((steps) => steps.at(-1)?.type !== "wait", "must not end with a wait (it would only delay completion)"),
});

/** Every shape problem, each naming its field, for the builder to show at once (the use cases stop at the first). */
export function workflowDefinitionIssues(definition: unknown): Array<{ param?: string; message: string }> {
  const parsed = workflowDefinitionSchema.safeParse(dropNulls(definition));
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => ({ param: formatParam(issue.path) || undefined, message: issue.message }));
}

/** The body of POST /v1/workflow_runs and /v1/sandbox/workflow_runs; exactly-one-of is checked after. */
export const triggerWorkflowRunSchema = z.object({
  workflowId: z.string().min(1).max(64).optional(),
  workflowKey: z.string().min(1).max(100).optional(),
  variables: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "The data the templates render with; a `locale` key (a BCP 47 tag) is the locale of the run's messages (docs/templates.md#where-the-locale-comes-from).",
    ),
  metaId: z.string().min(1).max(255).optional(),
  /** Given to every message the run sends (docs/api.md#tags). */
  tags: tagsInputSchema.optional(),
});

export type SendEmailStep = z.infer<typeof sendEmailStepSchema>;
export type WaitStep = z.infer<typeof waitStepSchema>;
export type WorkflowStepInput = z.infer<typeof workflowStepSchema>;
export type WorkflowDefinition = z.infer<typeof workflowDefinitionSchema>;
export type TriggerWorkflowRunBody = z.infer<typeof triggerWorkflowRunSchema>;
