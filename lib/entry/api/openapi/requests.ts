import { z } from "zod";
import { createAttachmentSchema } from "@/lib/domain/attachments/schemas";
import { BATCH_MAX_MESSAGES } from "@/lib/sending/prepare-batch";
import {
  attachmentInputSchema,
  rescheduleEmailSchema,
  resendEmailSchema,
  sendEmailSchema,
} from "@/lib/domain/messages/schemas";
import { triggerWorkflowRunSchema, workflowDefinitionSchema } from "@/lib/flows/workflows/schemas";
import { updateWorkflowRequestSchema } from "@/lib/flows/workflows/workflow-request";
import { apiKeyGrantSchema as parsedApiKeyGrant } from "@/lib/domain/api-keys/schemas";
import {
  createGroupApiSchema,
  setUnsubscribesApiSchema,
  updateContactApiSchema,
  updateGroupApiSchema,
} from "@/lib/domain/contacts/api";
import { addDomainApiSchema } from "@/lib/domain/domains/schemas";
import { pauseSendingApiSchema } from "@/lib/domain/workspaces/api";
import { updateWorkspaceSettingsSchema } from "@/lib/domain/workspaces/schemas";
import { addSuppressionApiSchema, removeSuppressionApiSchema } from "@/lib/domain/suppressions/api";
import { createEndpointSchema, replaySchema, updateEndpointSchema } from "@/lib/flows/webhooks/schemas";
import { previewDraftSchema } from "@/lib/domain/templates/preview-draft";
import {
  checkTemplateContentSchema,
  renderTemplateSchema,
  templateScenarioSchema,
} from "@/lib/domain/templates/schemas";
import { createTemplateRequestSchema, updateTemplateRequestSchema } from "@/lib/domain/templates/template-request";
import { putTemplateLocaleRequestSchema } from "@/lib/domain/templates/template-locale-request";

/**
 * Request bodies: the handlers' own zod schemas wherever they have one. Batches are parsed element
 * by element with the single-send schema (lib/sending/prepare-batch.ts), and the template routes
 * read `variables` by hand, so those bodies are composed here from the same pieces.
 */
export { createGroupApiSchema, setUnsubscribesApiSchema, updateContactApiSchema, updateGroupApiSchema };
export {
  addDomainApiSchema,
  addSuppressionApiSchema,
  pauseSendingApiSchema,
  removeSuppressionApiSchema,
  updateWorkspaceSettingsSchema,
};
export {
  createTemplateRequestSchema,
  previewDraftSchema,
  templateScenarioSchema,
  updateTemplateRequestSchema,
  updateWorkflowRequestSchema,
  workflowDefinitionSchema,
};
export {
  attachmentInputSchema,
  createAttachmentSchema,
  createEndpointSchema,
  replaySchema,
  resendEmailSchema,
  sendEmailSchema,
  triggerWorkflowRunSchema,
  updateEndpointSchema,
};

export const sendBatchSchema = z.object({
  emailMessages: z
    .array(sendEmailSchema)
    .min(1)
    .max(BATCH_MAX_MESSAGES)
    .describe(
      "Send bodies, each with the shape of POST /v1/email_messages. All-or-nothing: one bad element rejects the batch.",
    ),
  scheduledAt: sendEmailSchema.shape.scheduledAt.describe(
    "The time of every element that does not name its own scheduledAt (same rules).",
  ),
  locale: sendEmailSchema.shape.locale.describe(
    "The locale of every element that does not name its own locale (same rules; 400 naming locale when malformed).",
  ),
});

export { rescheduleEmailSchema, renderTemplateSchema, putTemplateLocaleRequestSchema, checkTemplateContentSchema };

export const previewVariablesSchema = z
  .record(z.string(), z.unknown())
  .describe("The body IS the variables object (as the real client sends it).");

/** POST /v1/api_keys: the handler's schema, with expiresAt as the string a caller sends (the handler coerces it to a date). */
export const apiKeyGrantSchema = parsedApiKeyGrant.extend({
  scopes: parsedApiKeyGrant.shape.scopes.describe(
    'Default ["full"]. A key that is not full may grant only scopes it has.',
  ),
  allowedSenders: parsedApiKeyGrant.shape.allowedSenders.describe(
    "Exact addresses or domains the key may send from; empty or absent: any verified sender.",
  ),
  allowedIps: parsedApiKeyGrant.shape.allowedIps.describe(
    "Addresses or CIDR ranges the key may be used from; empty or absent: anywhere.",
  ),
  expiresAt: z
    .string()
    .datetime({ offset: true })
    .nullable()
    .optional()
    .describe("When the key stops working (ISO 8601, in the future)."),
});
export const updateTemplateScenarioSchema = templateScenarioSchema
  .partial()
  .describe("Either or both; absent keeps the current value.");
