import { sendScope } from "@/lib/domain/api-keys/scopes.shared";
import { MESSAGE_SOURCES, MESSAGE_STATUSES } from "@/db/schema";
import type { JsonObject } from "./components";
import {
  operation,
  pathId,
  queryParam,
  replayed,
  SEND_ERRORS,
  JSON_BODY_ERRORS,
  type OperationSpec,
} from "./operation";

const messageCreated = {
  status: "201",
  description: "Accepted: validated, rendered and stored; delivery follows from the queue.",
  data: "EmailMessage",
} as const;

const send = (sandbox: boolean): OperationSpec => ({
  operationId: sandbox ? "sendSandboxEmailMessage" : "sendEmailMessage",
  summary: sandbox
    ? "Send a test email (validated, rendered and stored; never delivered)"
    : "Send an email, with a template or raw content",
  description: sandbox
    ? "Same validation, rendering and stored message as the live endpoint (source SANDBOX_API, status SUCCEEDED once rendered); nothing reaches a provider and test mode does not apply."
    : "Exactly one form: templateId (+ variables), or raw bodyHtml + subject (+ bodyText) with from. Every problem is reported in the request; delivery happens after the answer.",
  tag: sandbox ? "Sandbox" : "Email messages",
  scope: sendScope(sandbox),
  body: { schema: "SendEmailRequest" },
  success: [messageCreated, { ...replayed, data: "EmailMessage" }],
  errors: SEND_ERRORS,
});

const dateTime = { type: "string", format: "date-time" };
const contentLanguage = {
  description: "The locale rendered: the requested one, its language, or the template's default.",
  schema: { type: "string" },
};
const text = { type: "string", minLength: 1, maxLength: 255 };

const listParameters: JsonObject[] = [
  queryParam("limit", { type: "integer", minimum: 1, maximum: 50, default: 50 }, "Messages per page."),
  queryParam(
    "cursor.after",
    { type: "string" },
    "A message id: the page after it (older). Also accepted as cursor[after].",
  ),
  queryParam(
    "cursor.before",
    { type: "string" },
    "A message id: the page before it (newer), still newest first. Also cursor[before].",
  ),
  ...(["gt", "gte", "lt", "lte"] as const).map((op) =>
    queryParam(
      `createdAt.${op}`,
      dateTime,
      `createdAt ${{ gt: ">", gte: "≥", lt: "<", lte: "≤" }[op]} this ISO 8601 date-time. Also createdAt[${op}].`,
    ),
  ),
  queryParam("status", { type: "string", enum: [...MESSAGE_STATUSES] }, "Only messages with this status."),
  queryParam("source", { type: "string", enum: [...MESSAGE_SOURCES] }, "Only messages created this way."),
  queryParam("templateId", text, "Only messages sent with this template."),
  queryParam("batchId", text, "Only messages of this batch."),
  queryParam("metaId", text, "Only messages with this metaId."),
  {
    ...queryParam(
      "tag",
      { type: "array", items: { type: "string", minLength: 3, maxLength: 151 }, maxItems: 20 },
      'Only messages with this "name:value" tag (exact, case-sensitive). Repeat it for messages with every one of them (AND). Beyond the published API.',
    ),
    style: "form",
    explode: true,
  },
  queryParam("to", { type: "string" }, "Only messages whose to holds this address (exact, case-insensitive)."),
  queryParam(
    "subject",
    { type: "string", minLength: 1, maxLength: 200 },
    "Only messages whose subject contains this text, case-insensitive (trimmed; % and _ are plain characters). Beyond the published API.",
  ),
  queryParam(
    "scheduled",
    { type: "string", enum: ["true", "false"] },
    "true: scheduled messages still waiting for their time (PENDING or PAUSED, not handed over); false: messages sent without scheduledAt. Beyond the published API.",
  ),
];

export const messagePaths: Record<string, JsonObject> = {
  "/v1/email_messages": {
    get: operation({
      operationId: "listEmailMessages",
      summary: "List messages, newest first",
      description:
        "Keyset pagination: createdAt descending, then id descending. An unknown cursor id is a 400. Filters combine.",
      tag: "Email messages",
      scope: "emails:read",
      parameters: listParameters,
      success: [
        {
          status: "200",
          description: "One page of messages.",
          list: { meta: "MessageListMeta", item: "EmailMessage" },
        },
      ],
      errors: ["400"],
    }),
    post: operation(send(false)),
  },
  "/v1/email_messages/{id}": {
    get: operation({
      operationId: "getEmailMessage",
      summary: "Retrieve a message with its delivery timestamps",
      tag: "Email messages",
      scope: "emails:read",
      parameters: [pathId("message", "em_")],
      success: [{ status: "200", description: "The message.", data: "EmailMessage" }],
      errors: ["404", "410"],
    }),
    patch: operation({
      operationId: "rescheduleEmailMessage",
      scope: "emails:send",
      summary: "Reschedule a message still waiting for delivery (beyond the published API)",
      description:
        "Only scheduledAt can change (any other field is a 400 naming it). Allowed while the message is PENDING or PAUSED and not handed over to a provider; afterwards 409 naming its state. A SCHEDULED event records the move.",
      tag: "Email messages",
      parameters: [pathId("message", "em_")],
      body: { schema: "RescheduleEmailRequest" },
      success: [{ status: "200", description: "The message at its new time.", data: "EmailMessage" }],
      errors: [...JSON_BODY_ERRORS, "404", "409", "410"],
    }),
  },
  "/v1/email_messages/{id}/cancel": {
    post: operation({
      operationId: "cancelEmailMessage",
      scope: "emails:send",
      summary: "Cancel a message still waiting for delivery (beyond the published API)",
      description:
        "A scheduled or queued message that has not been handed over to a provider ends CANCELLED, with an EMAIL_MESSAGE_CANCELLED event, and is never sent, even when a worker already holds its job. Afterwards (being delivered, sent, failed, cancelled, sandbox) 409 naming its state.",
      tag: "Email messages",
      parameters: [pathId("message", "em_")],
      success: [{ status: "200", description: "The cancelled message.", data: "EmailMessage" }],
      errors: ["404", "409", "410"],
    }),
  },
  "/v1/email_messages/{id}/resend": {
    post: operation({
      operationId: "resendEmailMessage",
      summary: "Resend a message: a new live message with the same content (beyond the published API)",
      description:
        "Copies the stored addresses, subject, bodies, headers, attachment references, variables, metadata, group and template id (not re-rendered) into a new message with resentFromId set, accepted like any send (pausing, suppression, test mode, sender domain). 409 when the original's content was erased or purged, or it is a sandbox message. With a metaId, the same request within 24 hours replays the first answer.",
      tag: "Email messages",
      scope: "emails:send",
      parameters: [pathId("message", "em_")],
      body: { schema: "ResendEmailRequest", optional: true },
      success: [messageCreated, { ...replayed, data: "EmailMessage" }],
      errors: [...JSON_BODY_ERRORS, "404", "409", "410", "422"],
    }),
  },
  "/v1/email_messages/{id}/events": {
    get: operation({
      operationId: "listEmailMessageEvents",
      summary: "List a message's delivery timeline, newest first",
      tag: "Email messages",
      scope: "emails:read",
      parameters: [
        pathId("message", "em_"),
        queryParam(
          "page",
          { type: "integer", minimum: 1, default: 1 },
          "1-based; 50 events a page. A page past the end is empty.",
        ),
      ],
      success: [
        { status: "200", description: "One page of events.", list: { meta: "EventListMeta", item: "EmailMessageLog" } },
      ],
      errors: ["400", "404", "410"],
    }),
  },
  "/v1/sandbox/email_messages": { post: operation(send(true)) },
  "/v1/templates/{id}/render": {
    post: operation({
      operationId: "renderTemplate",
      summary: "Render a template with variables",
      description:
        "Through the same renderer as a send: subject, HTML and text (derived from the HTML when the template has none). `locale` picks the variant along the fallback chain (fr-CA → fr → the template's default locale); the answer's `locale` and Content-Language say which was used. A malformed tag is 400 naming `locale`.",
      tag: "Templates",
      scope: "templates:read",
      parameters: [pathId("template", "tpl_")],
      body: { schema: "RenderTemplateRequest", optional: true },
      success: [
        {
          status: "200",
          description: "The rendered template.",
          data: "RenderedTemplate",
          headers: { "Content-Language": contentLanguage },
        },
      ],
      errors: [...JSON_BODY_ERRORS, "404", "422"],
    }),
  },
  "/v1/templates/{id}/raw": {
    get: operation({
      operationId: "getRawTemplate",
      summary: "Retrieve a template's Liquid source",
      tag: "Templates",
      scope: "templates:read",
      parameters: [pathId("template", "tpl_")],
      success: [{ status: "200", description: "The raw template.", data: "Template" }],
      errors: ["404"],
    }),
  },
  "/v1/templates/{id}/preview": {
    post: operation({
      operationId: "previewTemplate",
      summary: "Render a template to its HTML document (used by the Node client)",
      description:
        "The body IS the variables object; the answer is the rendered HTML, served in a CSP sandbox. `?locale=` picks the variant along the fallback chain as /render's `locale` does (Content-Language: the one used). Beyond the published API: a body whose only key is `variables` (an object), for a template that reads no variable named `variables`, renders that object's contents and answers `X-Postwerk-Note: rendered body.variables as the variables`.",
      tag: "Templates",
      scope: "templates:read",
      parameters: [
        pathId("template", "tpl_"),
        queryParam("locale", { type: "string" }, "A BCP 47 tag (fr-CA); malformed → 400 naming `locale`."),
      ],
      body: { schema: "PreviewVariables", optional: true },
      success: [
        {
          status: "200",
          description: "The rendered HTML.",
          content: { "text/html": { schema: { type: "string" } } },
          headers: {
            "Content-Language": contentLanguage,
            "X-Postwerk-Requested-Locale": {
              description: "The requested locale, canonicalised, when one was asked.",
              schema: { type: "string" },
            },
            "X-Postwerk-Note": {
              description: "Present when body.variables was rendered as the variables.",
              schema: { type: "string" },
            },
          },
        },
      ],
      errors: [...JSON_BODY_ERRORS, "404", "422"],
    }),
  },
};
