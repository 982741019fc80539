import { z } from "zod";

/** The Workflow resource (docs/api.md#workflows), checked against serializeWorkflow like the others. */
const timestamp = z.iso.datetime().describe("ISO 8601 UTC with milliseconds.");

const sendEmailStep = z.object({
  type: z.literal("sendEmail"),
  templateId: z.string(),
  to: z.string().describe("Liquid over the run's variables, e.g. {{ user.email }}."),
  cc: z.string().optional(),
  bcc: z.string().optional(),
  from: z.string().optional(),
  replyTo: z.string().optional(),
  groupKey: z.string().optional().describe("An unsubscribe group of the workspace."),
});
const waitStep = z.object({ type: z.literal("wait"), seconds: z.int().describe("1 second to 90 days.") });

export const workflowResource = z.object({
  id: z.string().describe('A "wf_" prefix and 16 base62 characters.'),
  type: z.literal("Workflow"),
  createdAt: timestamp,
  updatedAt: timestamp,
  name: z.string(),
  key: z.string().nullable().describe("What POST /v1/workflow_runs may trigger it by; unique in the workspace."),
  enabled: z.boolean().describe("While false, a run triggered is SKIPPED with a reason."),
  steps: z
    .array(z.discriminatedUnion("type", [sendEmailStep, waitStep]))
    .describe("In order; runs already started keep their own copy."),
});
