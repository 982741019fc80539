import { z } from "zod";
import { createAttachmentSchema } from "@/lib/attachments/schemas";
import { BATCH_MAX_MESSAGES } from "@/lib/sending/prepare-batch";
import { attachmentInputSchema, resendEmailSchema, sendEmailSchema } from "@/lib/messages/schemas";
import { triggerWorkflowRunSchema } from "@/lib/workflows/schemas";
import { createEndpointSchema, replaySchema, updateEndpointSchema } from "@/lib/webhooks/schemas";

/**
 * Request bodies: the handlers' own zod schemas wherever they have one. Batches are parsed element
 * by element with the single-send schema (lib/sending/prepare-batch.ts), and the template routes
 * read `variables` by hand, so those bodies are composed here from the same pieces.
 */
export { attachmentInputSchema, createAttachmentSchema, createEndpointSchema, replaySchema, resendEmailSchema, sendEmailSchema, triggerWorkflowRunSchema, updateEndpointSchema };

export const sendBatchSchema = z.object({
  emailMessages: z
    .array(sendEmailSchema)
    .min(1)
    .max(BATCH_MAX_MESSAGES)
    .describe("Send bodies, each with the shape of POST /v1/email_messages. All-or-nothing: one bad element rejects the batch."),
});

export const renderTemplateSchema = z.object({
  variables: z.record(z.string(), z.unknown()).optional().describe("Values for the template's Liquid variables."),
});

export const previewVariablesSchema = z
  .record(z.string(), z.unknown())
  .describe("The body IS the variables object (as the real client sends it).");
