import { z } from "zod";
import * as requests from "./requests";
import * as resources from "./resources";
import * as management from "./resources-management";
import * as deliverability from "./resources-deliverability";
import * as templates from "./resources-templates";
import * as webhooks from "./resources-webhooks";
import * as workflows from "./resources-workflows";
import { inboundMessageSchemas } from "./resources-inbound-messages";
import { inboundRoutingSchemas } from "./resources-inbound-routing";
import { providerSchemas } from "./resources-providers";

export type JsonObject = Record<string, unknown>;

/** Named schemas: each becomes components/schemas/<name>, and every use of it a $ref. */
const NAMED: Array<[name: string, schema: z.ZodType, description: string]> = [
  ["EmailMessage", resources.emailMessageResource, "A message and its delivery timestamps."],
  ["EmailMessageLog", resources.emailMessageLogResource, "One event of a message's delivery timeline."],
  ["RenderedTemplate", resources.renderedTemplateResource, "A template rendered with variables."],
  ["Template", resources.templateResource, "A template's Liquid source, unexpanded."],
  ["Batch", resources.batchResource, "A batch of messages sent in one call."],
  ["WorkflowRun", resources.workflowRunResource, "One run of a workflow."],
  ["Attachment", resources.attachmentResource, "An uploaded attachment, referenced as attachmentId when sending."],
  ["AuditEvent", resources.auditEventResource, "One change to the workspace: who, what, before and after."],
  ["Error", resources.errorEnvelope, "Every error: JSON, never an HTML page or a stack trace."],
  ["MessageListMeta", resources.messageListMeta, "Keyset pagination of GET /v1/email_messages."],
  ["EventListMeta", resources.eventListMeta, "Page-numbered pagination of a message's events."],
  ["BatchMessagesMeta", resources.batchMessagesMeta, "Offset pagination of a batch's messages."],
  [
    "SendEmailRequest",
    requests.sendEmailSchema,
    "Either templateId (+ variables), or raw bodyHtml + subject (+ bodyText) with from. Unknown fields are ignored; an explicit null means absent.",
  ],
  ["AttachmentInput", requests.attachmentInputSchema, "Inline (contentBlob, base64) or uploaded (attachmentId)."],
  ["SendBatchRequest", requests.sendBatchSchema, "Body of POST /v1/batches (at most 10 MB)."],
  ["TriggerWorkflowRunRequest", requests.triggerWorkflowRunSchema, "Exactly one of workflowId and workflowKey."],
  ["CreateAttachmentRequest", requests.createAttachmentSchema, "Optional: what the client knows of the file."],
  ["RenderTemplateRequest", requests.renderTemplateSchema, "Variables to render the template with."],
  ["PreviewVariables", requests.previewVariablesSchema, "The template's variables, as the whole body."],
  ["ResendEmailRequest", requests.resendEmailSchema, "Optional: a metaId for the new message (idempotency key)."],
  [
    "RescheduleEmailRequest",
    requests.rescheduleEmailSchema,
    "Body of PATCH /v1/email_messages/{id}: the new scheduledAt, nothing else.",
  ],
  [
    "BatchCancellation",
    resources.batchCancellationResource,
    "What POST /v1/batches/{id}/cancel cancelled, and why the rest was left.",
  ],
  [
    "WebhookEndpoint",
    webhooks.webhookEndpointResource,
    "Where the workspace's events are POSTed, signed (Standard Webhooks).",
  ],
  ["WebhookDelivery", webhooks.webhookDeliveryResource, "One event to one endpoint: its state and last attempt."],
  ["WebhookDeliveryDetail", webhooks.webhookDeliveryDetail, "A delivery with its attempt log and payload."],
  ["WebhookEvent", webhooks.webhookEventPayload, "The payload of a webhook and of the event feed."],
  ["EventFeedMeta", webhooks.eventFeedMeta, "The feed's cursor."],
  ["WebhookReplayResult", webhooks.replayResult, "What a replay queued."],
  ["WebhookTestResult", webhooks.testEventResult, "The test event and its delivery."],
  ["Deleted", webhooks.deletedResult, "What was deleted."],
  ["CreateWebhookEndpointRequest", requests.createEndpointSchema, "eventTypes absent or null: every type."],
  ["UpdateWebhookEndpointRequest", requests.updateEndpointSchema, "Any subset of the fields."],
  ["TemplateVersionSummary", templates.templateVersionSummary, "One version in a template's history."],
  ["TemplateVersion", templates.templateVersionResource, "One saved version of a template, with its content."],
  ["TemplateVersionListMeta", templates.templateVersionListMeta, "How many versions, and the current one."],
  ["TemplateScenario", templates.templateScenarioResource, "Named sample data to preview a template with."],
  ["CountMeta", templates.countMeta, "A whole list: how many items."],
  ["TemplateValidation", templates.templateValidationResource, "What POST /v1/templates/validate found."],
  ["TemplateLocaleSummary", templates.templateLocaleSummary, "A locale of a template, as listed."],
  ["TemplateLocale", templates.templateLocaleResource, "A locale variant with its content and message table."],
  ["TemplateLocaleListMeta", templates.templateLocaleListMeta, "The template's default locale and version."],
  ["DeletedTemplateLocale", templates.deletedTemplateLocale, "The variant deleted."],
  ["MessageTable", templates.messageTable, "A translators' file: flat keys to ICU message texts."],
  [
    "PutTemplateLocaleRequest",
    requests.putTemplateLocaleRequestSchema,
    "The whole variant (a field left out is inherited again); the default locale takes only messages, sampleData and fallsBackForMissingKeys.",
  ],
  [
    "CreateTemplateRequest",
    requests.createTemplateRequestSchema,
    "A template's content; kind blocks needs blocks (with a root block) and the bodyHtml compiled from it.",
  ],
  [
    "UpdateTemplateRequest",
    requests.updateTemplateRequestSchema,
    "Any subset of the content (null: unchanged; an empty bodyText, fromAddress or replyTo clears it), and the version it was made from.",
  ],
  [
    "ValidateTemplateRequest",
    requests.previewDraftSchema,
    "A draft and the variables to render it with; other fields are ignored.",
  ],
  ["TemplateScenarioRequest", requests.templateScenarioSchema, "A scenario's name and sample data."],
  ["UpdateTemplateScenarioRequest", requests.updateTemplateScenarioSchema, "A new name, new variables, or both."],
  ["Workflow", workflows.workflowResource, "Steps that send templates and wait, triggered by POST /v1/workflow_runs."],
  [
    "CreateWorkflowRequest",
    requests.workflowDefinitionSchema,
    "A workflow's definition: name, key?, enabled? (default true), steps (at least one sendEmail; not ending with a wait).",
  ],
  [
    "UpdateWorkflowRequest",
    requests.updateWorkflowRequestSchema,
    "Any of the definition's fields; key null removes the key, any other null leaves the field as it is.",
  ],
  [
    "ReplayWebhookEndpointRequest",
    requests.replaySchema,
    "mode missed (default): events that never reached the endpoint; all: every one.",
  ],
  ...managementSchemas(),
  ...inboundRoutingSchemas(),
  ...providerSchemas(),
  ...inboundMessageSchemas(),
];

/** Management (docs/api.md#management): domains, suppressions, contacts and groups, API keys, the workspace. */
function managementSchemas(): Array<[string, z.ZodType, string]> {
  return [
    ["DomainSummary", management.domainSummaryResource, "A sending domain, as listed."],
    ["Domain", management.domainResource, "A sending domain with the DNS records it publishes."],
    ["ContentCheck", deliverability.contentCheckResource, "A template's content checks, errors first."],
    ["DmarcSummary", deliverability.dmarcSummaryResource, "The last 30 days of a domain's DMARC aggregate reports."],
    ["CheckTemplateContentRequest", requests.checkTemplateContentSchema, "Optional: variables, one locale, groupMail."],
    [
      "DomainRequirementCheck",
      deliverability.requirementCheckResource,
      "A check of a domain against the mailbox providers' sender requirements, line by line.",
    ],
    ["CountMeta", management.countMeta, "How many items the list holds (a short list: no paging)."],
    ["Suppression", management.suppressionResource, "An address on the suppression list."],
    ["RemovedSuppression", management.removedSuppression, "The entry just removed."],
    ["EmailPageMeta", management.emailPageMeta, "Alphabetical pagination by address."],
    ["AddDomainRequest", requests.addDomainApiSchema, "Body of POST /v1/domains."],
    ["AddSuppressionRequest", requests.addSuppressionApiSchema, "Body of POST /v1/suppressions."],
    [
      "RemoveSuppressionRequest",
      requests.removeSuppressionApiSchema,
      "Optional body of DELETE /v1/suppressions/{email}.",
    ],
    ["ApiKey", management.apiKeyResource, "An API key: what it may do, never its secret."],
    ["CreatedApiKey", management.createdApiKeyResource, "A key just created, with its secret (shown once)."],
    ["Workspace", management.workspaceResource, "The key's workspace: settings and sending state."],
    ["ResumedWorkspace", management.resumedWorkspace, "The workspace after a resume."],
    ["CreateApiKeyRequest", requests.apiKeyGrantSchema, "Body of POST /v1/api_keys."],
    ["UpdateWorkspaceRequest", requests.updateWorkspaceSettingsSchema, "Body of PATCH /v1/workspace: any subset."],
    ["PauseSendingRequest", requests.pauseSendingApiSchema, "Optional body of POST /v1/workspace/pause."],
    ["Contact", management.contactResource, "A recipient the workspace has sent to."],
    ["ContactDetail", management.contactDetailResource, "A contact with its groups, newest messages and suppression."],
    [
      "UnsubscribeGroup",
      management.unsubscribeGroupResource,
      "A group recipients unsubscribe from; sends name it by groupId or groupKey.",
    ],
    ["UpdateContactRequest", requests.updateContactApiSchema, "Body of PATCH /v1/contacts/{id}."],
    ["SetContactUnsubscribesRequest", requests.setUnsubscribesApiSchema, "Body of PUT /v1/contacts/{id}/unsubscribes."],
    ["CreateUnsubscribeGroupRequest", requests.createGroupApiSchema, "Body of POST /v1/unsubscribe_groups."],
    ["UpdateUnsubscribeGroupRequest", requests.updateGroupApiSchema, "Body of PATCH /v1/unsubscribe_groups/{id}."],
  ];
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * Noise for readers, left out of zod's JSON Schema: it spells date-time out as a long regex too (the
 * format says it), and bounds every integer by the safe-integer range. Also the MCP tools' inputs.
 */
export function withoutNoise({ jsonSchema }: { jsonSchema: JsonObject }): void {
  if (jsonSchema.format === "date-time") delete jsonSchema.pattern;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}

/** All named schemas as JSON Schema 2020-12 (OpenAPI 3.1's dialect), through zod's own converter. */
export function componentSchemas(): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const [name, schema] of NAMED) registry.add(schema, { id: name });
  const { schemas } = z.toJSONSchema(registry, {
    io: "input", // requests: what a caller may send; responses carry no transforms, so input = output
    uri: (name) => `#/components/schemas/${name}`,
    override: withoutNoise,
  });
  const described: Record<string, JsonObject> = {};
  for (const [name, , description] of NAMED) {
    const schema: JsonObject = { description, ...schemas[name] };
    delete schema.$schema;
    delete schema.$id;
    described[name] = schema;
  }
  return described;
}

const integerHeader = (description: string) => ({ description, schema: { type: "integer", minimum: 0 } });

export const headers = {
  "RateLimit-Limit": integerHeader("The most requests this API key may send at once (RATE_LIMIT_BURST, default 200)."),
  "RateLimit-Remaining": integerHeader("How many more requests the key may send right now."),
  "RateLimit-Reset": integerHeader("Seconds until more requests become available."),
  "Retry-After": integerHeader("Seconds to wait before retrying."),
  "Idempotent-Replayed": {
    description: "true when an earlier identical request (same metaId and body) is answered again.",
    schema: { type: "string", enum: ["true"] },
  },
  "WWW-Authenticate": { description: 'Basic realm="api"', schema: { type: "string" } },
  Allow: { description: "The methods the path accepts.", schema: { type: "string" } },
};

const header = (name: keyof typeof headers) => ({ $ref: `#/components/headers/${name}` });

/** Every answer to an authenticated request carries the rate-limit headers. */
export const rateLimitHeaders = {
  "RateLimit-Limit": header("RateLimit-Limit"),
  "RateLimit-Remaining": header("RateLimit-Remaining"),
  "RateLimit-Reset": header("RateLimit-Reset"),
};

const errorResponse = (name: string, description: string, extraHeaders: JsonObject = rateLimitHeaders) =>
  [name, { description, headers: extraHeaders, content: { "application/json": { schema: ref("Error") } } }] as const;

/** The error table of docs/api.md#decided-errors: one reusable response per status, named in components/responses. */
export const ERROR_RESPONSES = {
  "400": errorResponse(
    "BadRequest",
    "INVALID_JSON (not a JSON object), EMAIL_MESSAGE_INVALID_PARAMETER_ERROR, EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR or " +
      "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR; `param` names the field.",
  ),
  "401": errorResponse("Unauthorized", "UNAUTHORIZED: no, malformed, unknown, revoked or expired credentials.", {
    "WWW-Authenticate": header("WWW-Authenticate"),
  }),
  "403": errorResponse(
    "Forbidden",
    "FORBIDDEN: the API key lacks the operation's scope (the message names it), or its IP allow list does not hold the caller's address.",
  ),
  "404": errorResponse("NotFound", "NOT_FOUND: unknown id, or an id of another workspace; `param` names it."),
  "405": errorResponse(
    "MethodNotAllowed",
    "METHOD_NOT_ALLOWED: any method a path does not list; Allow names those it accepts.",
    {
      Allow: header("Allow"),
    },
  ),
  "409": errorResponse(
    "Conflict",
    "CONFLICT: the state forbids it (an attachment already in use; a resend of a message whose content is gone, or of a sandbox message; a replay to a disabled webhook endpoint; a 51st endpoint; a template save made from a stale version, or a delete while workflows send it; a workflow key another workflow has; cancelling or rescheduling a message already handed over, sent, failed or cancelled; an inbound domain another workspace holds; an inbound route pattern its domain already has).",
  ),
  "413": errorResponse(
    "PayloadTooLarge",
    "PAYLOAD_TOO_LARGE: the body is over its limit (10 MB for sends and batches), or inline attachments over 5 MB decoded.",
  ),
  "410": errorResponse(
    "Purged",
    "MESSAGE_PURGED: the id (a message, inbound mail or thread) was made before the workspace's metadata retention window, so retention deleted it, or any id that old; `param` is `id` (docs/retention.md#the-answers).",
  ),
  "415": errorResponse("UnsupportedMediaType", "UNSUPPORTED_MEDIA_TYPE: send Content-Type: application/json."),
  "422": errorResponse(
    "UnprocessableContent",
    "EMAIL_MESSAGE_INVALID_SENDER_ERROR (an unverified sender domain, or a sender the API key's restriction does not allow; `param` names `from`, or `actions[i].from` for an inbound route's forward), " +
      "EMAIL_MESSAGE_INVALID_TEST_MODE_RECIPIENT_ERROR or TEMPLATE_RENDER_ERROR.",
  ),
  "429": errorResponse("RateLimited", "RATE_LIMITED: over the API key's rate; retry after Retry-After seconds.", {
    ...rateLimitHeaders,
    "Retry-After": header("Retry-After"),
  }),
  "503": errorResponse("ServiceUnavailable", "SERVICE_UNAVAILABLE: the database is unreachable; nothing was written.", {
    "Retry-After": header("Retry-After"),
  }),
};

export type ErrorStatus = keyof typeof ERROR_RESPONSES;

export const errorResponseRef = (status: ErrorStatus) => ({
  $ref: `#/components/responses/${ERROR_RESPONSES[status][0]}`,
});

export function responseComponents(): Record<string, JsonObject> {
  return Object.fromEntries(Object.values(ERROR_RESPONSES).map(([name, response]) => [name, response]));
}
