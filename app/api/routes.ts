import "server-only";
import { createRouter, type RouteEntry } from "@/lib/entry/api/router";
import { unknownPath } from "@/lib/entry/api/with-api-key";
import { createMcpHandler } from "@/lib/entry/mcp/http-handler";
import * as resendEvents from "./provider-events/resend/handlers";
import * as sesEvents from "./provider-events/ses/handlers";
import * as resendConnectionEvents from "./provider-events/resend/[id]/handlers";
import * as sesConnectionEvents from "./provider-events/ses/[id]/handlers";
import * as apiKeys from "./v1/api_keys/handlers";
import * as apiKeysById from "./v1/api_keys/[id]/handlers";
import * as attachments from "./v1/attachments/handlers";
import * as auditEvents from "./v1/audit_events/handlers";
import * as batches from "./v1/batches/handlers";
import * as batchesById from "./v1/batches/[id]/handlers";
import * as batchesByIdCancel from "./v1/batches/[id]/cancel/handlers";
import * as batchesByIdEmailMessages from "./v1/batches/[id]/email_messages/handlers";
import * as contacts from "./v1/contacts/handlers";
import * as contactsById from "./v1/contacts/[id]/handlers";
import * as contactsByIdUnsubscribes from "./v1/contacts/[id]/unsubscribes/handlers";
import * as domains from "./v1/domains/handlers";
import * as domainsById from "./v1/domains/[id]/handlers";
import * as domainsByIdVerify from "./v1/domains/[id]/verify/handlers";
import * as domainsByIdRequirements from "./v1/domains/[id]/requirements/handlers";
import * as domainsByIdDmarc from "./v1/domains/[id]/dmarc/handlers";
import * as emailMessages from "./v1/email_messages/handlers";
import * as emailMessagesById from "./v1/email_messages/[id]/handlers";
import * as emailMessagesByIdCancel from "./v1/email_messages/[id]/cancel/handlers";
import * as emailMessagesByIdEvents from "./v1/email_messages/[id]/events/handlers";
import * as emailMessagesByIdResend from "./v1/email_messages/[id]/resend/handlers";
import * as events from "./v1/events/handlers";
import * as inboundDomains from "./v1/inbound_domains/handlers";
import * as inboundDomainsById from "./v1/inbound_domains/[id]/handlers";
import * as inboundDomainsByIdVerify from "./v1/inbound_domains/[id]/verify/handlers";
import * as inboundRoutes from "./v1/inbound_routes/handlers";
import * as inboundRoutesById from "./v1/inbound_routes/[id]/handlers";
import * as inboundMessages from "./v1/inbound_messages/handlers";
import * as inboundMessagesById from "./v1/inbound_messages/[id]/handlers";
import * as inboundMessagesByIdRaw from "./v1/inbound_messages/[id]/raw/handlers";
import * as inboundMessagesByIdReply from "./v1/inbound_messages/[id]/reply/handlers";
import * as inboundMessagesByIdAttachment from "./v1/inbound_messages/[id]/attachments/[attachmentId]/handlers";
import * as threads from "./v1/threads/handlers";
import * as threadsById from "./v1/threads/[id]/handlers";
import * as threadsByIdReply from "./v1/threads/[id]/reply/handlers";
import * as openapiJson from "./v1/openapi.json/handlers";
import * as providers from "./v1/providers/handlers";
import * as providersById from "./v1/providers/[id]/handlers";
import * as routingRules from "./v1/routing_rules/handlers";
import * as routingRulesById from "./v1/routing_rules/[id]/handlers";
import * as routingRulesDryRun from "./v1/routing_rules/dry_run/handlers";
import * as sandboxBatches from "./v1/sandbox/batches/handlers";
import * as sandboxEmailMessages from "./v1/sandbox/email_messages/handlers";
import * as sandboxWorkflowRuns from "./v1/sandbox/workflow_runs/handlers";
import * as suppressions from "./v1/suppressions/handlers";
import * as suppressionsByEmail from "./v1/suppressions/[email]/handlers";
import * as templates from "./v1/templates/handlers";
import * as templatesById from "./v1/templates/[id]/handlers";
import * as templatesByIdLocales from "./v1/templates/[id]/locales/handlers";
import * as templatesByIdLocalesByLocale from "./v1/templates/[id]/locales/[locale]/handlers";
import * as templatesByIdLocalesByLocaleMessages from "./v1/templates/[id]/locales/[locale]/messages/handlers";
import * as templatesByIdPreview from "./v1/templates/[id]/preview/handlers";
import * as templatesByIdRaw from "./v1/templates/[id]/raw/handlers";
import * as templatesByIdRender from "./v1/templates/[id]/render/handlers";
import * as templatesByIdCheck from "./v1/templates/[id]/check/handlers";
import * as templatesByIdScenarios from "./v1/templates/[id]/scenarios/handlers";
import * as templatesByIdScenariosByScenarioId from "./v1/templates/[id]/scenarios/[scenarioId]/handlers";
import * as templatesByIdVersions from "./v1/templates/[id]/versions/handlers";
import * as templatesByIdVersionsByVersion from "./v1/templates/[id]/versions/[version]/handlers";
import * as templatesByIdVersionsByVersionRestore from "./v1/templates/[id]/versions/[version]/restore/handlers";
import * as templatesValidate from "./v1/templates/validate/handlers";
import * as unsubscribeGroups from "./v1/unsubscribe_groups/handlers";
import * as unsubscribeGroupsById from "./v1/unsubscribe_groups/[id]/handlers";
import * as webhookEndpoints from "./v1/webhook_endpoints/handlers";
import * as webhookEndpointsById from "./v1/webhook_endpoints/[id]/handlers";
import * as webhookEndpointsByIdDeliveries from "./v1/webhook_endpoints/[id]/deliveries/handlers";
import * as webhookEndpointsByIdDeliveriesByDeliveryId from "./v1/webhook_endpoints/[id]/deliveries/[deliveryId]/handlers";
import * as webhookEndpointsByIdReplay from "./v1/webhook_endpoints/[id]/replay/handlers";
import * as webhookEndpointsByIdRotateSecret from "./v1/webhook_endpoints/[id]/rotate_secret/handlers";
import * as webhookEndpointsByIdTest from "./v1/webhook_endpoints/[id]/test/handlers";
import * as workflowRuns from "./v1/workflow_runs/handlers";
import * as workflowRunsById from "./v1/workflow_runs/[id]/handlers";
import * as workflows from "./v1/workflows/handlers";
import * as workflowsById from "./v1/workflows/[id]/handlers";
import * as workflowsByIdDisable from "./v1/workflows/[id]/disable/handlers";
import * as workflowsByIdEnable from "./v1/workflows/[id]/enable/handlers";
import * as workspace from "./v1/workspace/handlers";
import * as workspacePause from "./v1/workspace/pause/handlers";
import * as workspaceResume from "./v1/workspace/resume/handlers";

/**
 * Every endpoint of the public API, served under /api/v1 and /v1: the one route table, read by the
 * catch-all route under app/api/v1 (next dev, next start), the tests, and the production server's
 * door (lib/entry/http). A handlers module exports one function per method it serves.
 */
export const API_ROUTES: readonly RouteEntry[] = [
  ["/api_keys", apiKeys],
  ["/api_keys/:id", apiKeysById],
  ["/attachments", attachments],
  ["/audit_events", auditEvents],
  ["/batches", batches],
  ["/email_messages_batch", batches], // the older path of /batches
  ["/batches/:id", batchesById],
  ["/batches/:id/cancel", batchesByIdCancel],
  ["/email_messages_batch/:id/cancel", batchesByIdCancel], // the older path
  ["/batches/:id/email_messages", batchesByIdEmailMessages],
  ["/contacts", contacts],
  ["/contacts/:id", contactsById],
  ["/contacts/:id/unsubscribes", contactsByIdUnsubscribes],
  ["/domains", domains],
  ["/domains/:id", domainsById],
  ["/domains/:id/verify", domainsByIdVerify],
  ["/domains/:id/requirements", domainsByIdRequirements],
  ["/domains/:id/dmarc", domainsByIdDmarc],
  ["/email_messages", emailMessages],
  ["/email_messages/:id", emailMessagesById],
  ["/email_messages/:id/cancel", emailMessagesByIdCancel],
  ["/email_messages/:id/events", emailMessagesByIdEvents],
  ["/email_messages/:id/resend", emailMessagesByIdResend],
  ["/events", events],
  ["/inbound_domains", inboundDomains],
  ["/inbound_domains/:id", inboundDomainsById],
  ["/inbound_domains/:id/verify", inboundDomainsByIdVerify],
  ["/inbound_routes", inboundRoutes],
  ["/inbound_routes/:id", inboundRoutesById],
  ["/inbound_messages", inboundMessages],
  ["/inbound_messages/:id", inboundMessagesById],
  ["/inbound_messages/:id/raw", inboundMessagesByIdRaw],
  ["/inbound_messages/:id/reply", inboundMessagesByIdReply],
  ["/inbound_messages/:id/attachments/:attachmentId", inboundMessagesByIdAttachment],
  ["/providers", providers],
  ["/providers/:id", providersById],
  ["/routing_rules", routingRules],
  ["/routing_rules/dry_run", routingRulesDryRun],
  ["/routing_rules/:id", routingRulesById],
  ["/threads", threads],
  ["/threads/:id", threadsById],
  ["/threads/:id/reply", threadsByIdReply],
  ["/openapi.json", openapiJson],
  ["/sandbox/batches", sandboxBatches],
  ["/sandbox/email_messages_batch", sandboxBatches], // the older path
  ["/sandbox/email_messages", sandboxEmailMessages],
  ["/sandbox/workflow_runs", sandboxWorkflowRuns],
  ["/suppressions", suppressions],
  ["/suppressions/:email", suppressionsByEmail],
  ["/templates", templates],
  ["/templates/:id", templatesById],
  ["/templates/:id/locales", templatesByIdLocales],
  ["/templates/:id/locales/:locale", templatesByIdLocalesByLocale],
  ["/templates/:id/locales/:locale/messages", templatesByIdLocalesByLocaleMessages],
  ["/templates/:id/preview", templatesByIdPreview],
  ["/templates/:id/raw", templatesByIdRaw],
  ["/templates/:id/render", templatesByIdRender],
  ["/templates/:id/check", templatesByIdCheck],
  ["/templates/:id/scenarios", templatesByIdScenarios],
  ["/templates/:id/scenarios/:scenarioId", templatesByIdScenariosByScenarioId],
  ["/templates/:id/versions", templatesByIdVersions],
  ["/templates/:id/versions/:version", templatesByIdVersionsByVersion],
  ["/templates/:id/versions/:version/restore", templatesByIdVersionsByVersionRestore],
  ["/templates/validate", templatesValidate],
  ["/unsubscribe_groups", unsubscribeGroups],
  ["/unsubscribe_groups/:id", unsubscribeGroupsById],
  ["/webhook_endpoints", webhookEndpoints],
  ["/webhook_endpoints/:id", webhookEndpointsById],
  ["/webhook_endpoints/:id/deliveries", webhookEndpointsByIdDeliveries],
  ["/webhook_endpoints/:id/deliveries/:deliveryId", webhookEndpointsByIdDeliveriesByDeliveryId],
  ["/webhook_endpoints/:id/replay", webhookEndpointsByIdReplay],
  ["/webhook_endpoints/:id/rotate_secret", webhookEndpointsByIdRotateSecret],
  ["/webhook_endpoints/:id/test", webhookEndpointsByIdTest],
  ["/workflow_runs", workflowRuns],
  ["/workflow_runs/:id", workflowRunsById],
  ["/workflows", workflows],
  ["/workflows/:id", workflowsById],
  ["/workflows/:id/disable", workflowsByIdDisable],
  ["/workflows/:id/enable", workflowsByIdEnable],
  ["/workspace", workspace],
  ["/workspace/pause", workspacePause],
  ["/workspace/resume", workspaceResume],
];

/** Provider webhooks: SNS (SES events) and Resend post here at the rate of the mail sent. */
export const PROVIDER_EVENT_ROUTES: readonly RouteEntry[] = [
  ["/ses", sesEvents],
  ["/resend", resendEvents],
  // A workspace connection's own events (docs/delivery.md#routing-and-failover).
  ["/ses/:id", sesConnectionEvents],
  ["/resend/:id", resendConnectionEvents],
];

export const apiRouter = createRouter({ bases: ["/api/v1", "/v1"], routes: API_ROUTES, notFound: unknownPath });
export const providerEventsRouter = createRouter({
  bases: ["/api/provider-events"],
  routes: PROVIDER_EVENT_ROUTES,
  notFound: unknownPath,
});

/**
 * MCP over Streamable HTTP (docs/mcp.md): POST only, since it is stateless (no session to stream to on
 * GET, none to end on DELETE). Its tools call the public API in-process, through apiRouter.
 */
export const mcpRouter = createRouter({
  bases: ["/api/mcp"],
  routes: [["", { POST: createMcpHandler(apiRouter) }]],
  notFound: unknownPath,
});
