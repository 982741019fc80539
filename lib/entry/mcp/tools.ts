import { z } from "zod";
import { grants, SANDBOX_SEND_SCOPES } from "@/lib/domain/api-keys/scopes.shared";
import { renderTemplateSchema, replaySchema, sendEmailSchema } from "@/lib/entry/api/openapi/requests";
import { updateTemplateRequestSchema } from "@/lib/domain/templates/template-request";
import { refusalResult, toolResult } from "./api-call";
import { explainFailureTool, getMessageTool } from "./message-tools";
import { inputSchemaOf, operationOf, operationTool, requestOf, type McpTool } from "./tool";

/**
 * send_email: POST /v1/email_messages, or its sandbox twin when asked, and always for a key that may only
 * send to the sandbox (emails:sandbox without emails:send), which therefore can never send real mail.
 */
const sendEmail: McpTool = {
  name: "send_email",
  title: "Send an email",
  description:
    "POST /v1/email_messages: send with a template (templateId + variables) or raw content (from, subject, bodyHtml). " +
    "sandbox: true sends to the sandbox (POST /v1/sandbox/email_messages: validated, rendered and stored, never delivered). " +
    "A key with only the emails:sandbox scope always sends to the sandbox.",
  scope: SANDBOX_SEND_SCOPES,
  readOnly: false,
  inputSchema: () =>
    inputSchemaOf(operationOf("POST", "/v1/email_messages"), sendEmailSchema, {
      sandbox: {
        type: "boolean",
        description:
          "true: to the sandbox, never delivered. Ignored (always the sandbox) for a key limited to emails:sandbox.",
      },
    }),
  run: async (input, { api, principal }) => {
    const { sandbox, ...body } = input;
    const liveAllowed = grants(principal.scopes, "emails:send");
    const toSandbox = sandbox === true || !liveAllowed;
    const path = toSandbox ? "/v1/sandbox/email_messages" : "/v1/email_messages";
    const notes =
      toSandbox && !liveAllowed && sandbox !== true
        ? ["Sent to the sandbox (never delivered): this API key may send to the sandbox only (emails:sandbox)."]
        : [];
    return toolResult(await api("POST", path, { body }), notes);
  },
};

/** preview_template: the body IS the variables; the answer is the HTML document. */
const previewTemplate: McpTool = {
  name: "preview_template",
  title: "Preview a template",
  description:
    "POST /v1/templates/{id}/preview: the template rendered with these variables, as the HTML document a recipient would see. " +
    "locale picks the variant along the fallback chain.",
  scope: "templates:read",
  readOnly: true,
  inputSchema: () =>
    inputSchemaOf(operationOf("POST", "/v1/templates/{id}/preview"), undefined, {
      variables: { type: "object", description: "Values for the template's Liquid variables." },
    }),
  run: async (input, { api }) => {
    let request;
    try {
      request = requestOf("/v1/templates/{id}/preview", operationOf("POST", "/v1/templates/{id}/preview"), input);
    } catch (error) {
      return refusalResult(error);
    }
    const answer = await api("POST", request.path, { query: request.query, body: input.variables ?? {} });
    const locale = answer.headers.get("content-language");
    return toolResult(answer, answer.status < 400 && locale ? [`Rendered in the locale ${locale}.`] : []);
  },
};

/** Built on first use, not at import: each reads the OpenAPI document. */
const allTools = (): readonly McpTool[] => [
  sendEmail,
  operationTool({
    name: "render_template",
    title: "Render a template",
    method: "POST",
    path: "/v1/templates/{id}/render",
    body: renderTemplateSchema,
  }),
  previewTemplate,
  operationTool({
    name: "list_messages",
    title: "List and search messages",
    method: "GET",
    path: "/v1/email_messages",
    lead: "Search by recipient (to), subject text, status, template, tag or time.",
  }),
  getMessageTool,
  explainFailureTool,
  operationTool({ name: "list_templates", title: "List templates", method: "GET", path: "/v1/templates" }),
  operationTool({ name: "get_template", title: "Get a template", method: "GET", path: "/v1/templates/{id}" }),
  operationTool({
    name: "update_template",
    title: "Edit a template",
    method: "PATCH",
    path: "/v1/templates/{id}",
    body: updateTemplateRequestSchema,
    lead: "Give version: the template's version as get_template read it; if someone saved since, the answer is 409 CONFLICT and nothing changes.",
  }),
  operationTool({
    name: "list_webhook_endpoints",
    title: "List webhook endpoints",
    method: "GET",
    path: "/v1/webhook_endpoints",
  }),
  operationTool({
    name: "list_webhook_deliveries",
    title: "List an endpoint's webhook deliveries",
    method: "GET",
    path: "/v1/webhook_endpoints/{id}/deliveries",
  }),
  operationTool({
    name: "replay_webhook_delivery",
    title: "Replay webhook deliveries",
    method: "POST",
    path: "/v1/webhook_endpoints/{id}/replay",
    body: z.object(replaySchema.shape),
    lead: "Resend one delivery's event (eventId, as list_webhook_deliveries shows it), or every event missed since a time.",
  }),
  operationTool({ name: "list_suppressions", title: "List suppressions", method: "GET", path: "/v1/suppressions" }),
  operationTool({ name: "list_domains", title: "List sending domains", method: "GET", path: "/v1/domains" }),
  operationTool({
    name: "get_domain_checks",
    title: "Get a domain's requirement checks",
    method: "GET",
    path: "/v1/domains/{id}/requirements",
  }),
];

let built: readonly McpTool[] | undefined;

/** Every tool, in the order a client lists them. */
export const mcpTools = (): readonly McpTool[] => (built ??= allTools());

/** The tools a key's scopes grant: the others do not exist in its session. */
export const toolsFor = (scopes: readonly string[]) => mcpTools().filter((tool) => grants(scopes, tool.scope));
