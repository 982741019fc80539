import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAttachment } from "@/lib/domain/attachments/create-attachment";
import { serializeAttachment } from "@/lib/domain/attachments/serialize";
import { getBatchDetail } from "@/lib/domain/batches/get-batch-detail";
import { listBatchMessages, parseBatchMessageListQuery } from "@/lib/domain/batches/list-batch-messages";
import { sendBatch } from "@/lib/sending/send-batch";
import { serializeBatch, serializeBatchDetail } from "@/lib/domain/batches/serialize";
import { listAuditEvents, parseAuditListQuery, serializeAuditEvent } from "@/lib/records/audit/list-audit-events";
import { AppError } from "@/lib/foundation/errors";
import { listMessageEvents } from "@/lib/domain/messages/list-message-events";
import { listMessages } from "@/lib/domain/messages/list-messages";
import { parseMessageListQuery } from "@/lib/domain/messages/message-list-query";
import { sendMessage } from "@/lib/sending/send-message";
import { serializeEvent, serializeMessage } from "@/lib/domain/messages/serialize";
import { getTemplateOrThrow } from "@/lib/domain/templates/get-template-or-throw";
import { renderTemplateById } from "@/lib/domain/templates/render-template-by-id";
import { serializeRawTemplate, serializeRendered } from "@/lib/domain/templates/serialize";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { serializeWorkflowRun } from "@/lib/flows/workflows/serialize";
import { triggerWorkflowRun } from "@/lib/flows/workflows/trigger-workflow-run";
import { errorReply } from "../respond";
import * as resources from "./resources";
import * as templateResources from "./resources-templates";
import * as webhooks from "./resources-webhooks";
import * as workflowResources from "./resources-workflows";
import { createWorkflowWorkspace } from "@/lib/flows/workflows/testing";
import { serializeWorkflow } from "@/lib/flows/workflows/serialize";
import { getTemplateVersionOrThrow } from "@/lib/domain/templates/get-template-version-or-throw";
import { listTemplateVersions } from "@/lib/domain/templates/list-template-versions";
import { previewDraft } from "@/lib/domain/templates/preview-draft";
import { saveTemplateScenario } from "@/lib/domain/templates/save-template-scenario";
import {
  serializeScenario,
  serializeTemplateVersion,
  serializeTemplateVersionSummary,
  serializeValidation,
} from "@/lib/domain/templates/serialize";
import { getDb } from "@/db/client";
import { webhookDeliveries } from "@/db/schema";
import { useSettings } from "@/lib/testing/settings";
import { listEventFeed, parseFeedQuery } from "@/lib/flows/webhooks/list-event-feed";
import { createEndpoint } from "@/lib/flows/webhooks/manage-endpoints";
import { sendTestEvent } from "@/lib/flows/webhooks/send-test-event";
import { attemptDeliveries } from "@/lib/flows/webhooks/attempt-deliveries";
import { getDeliveryDetail } from "@/lib/flows/webhooks/list-deliveries";
import { serializeDelivery, serializeEndpoint } from "@/lib/flows/webhooks/serialize";

/** Strict at the top level: a field the serializer adds but the document lacks fails here. */
const conforms = (schema: z.ZodObject, value: unknown) => expect(() => schema.strict().parse(value)).not.toThrow();

const raw = { from: "Acme <hello@example.com>", to: "Ann <ann@example.org>", subject: "Hi", bodyHtml: "<p>Hi</p>" };

// The document's resources are zod schemas written beside the serializers: these tests keep them equal.
describe("OpenAPI resources match what the serializers build", () => {
  it("EmailMessage, EmailMessageLog, RenderedTemplate, Template", async () => {
    const ws = await createTestWorkspace();
    const { message } = await sendMessage({
      workspaceId: ws.workspace.id,
      sandbox: false,
      body: { ...raw, metaId: "order-1", metadata: { n: 1 } },
    });
    conforms(resources.emailMessageResource, serializeMessage(message));
    const { events } = await listMessageEvents(ws.workspace.id, message.id, null);
    for (const event of events) conforms(resources.emailMessageLogResource, serializeEvent(event));

    const template = await ws.createTemplate({ bodyText: "Hello {{ name }}" });
    conforms(
      resources.renderedTemplateResource,
      serializeRendered(await renderTemplateById(ws.workspace.id, template.id, { name: "Ann" })),
    );
    conforms(resources.templateResource, serializeRawTemplate(await getTemplateOrThrow(ws.workspace.id, template.id)));
  });

  it("Batch (created, and with counts), and the list metas", async () => {
    const ws = await createTestWorkspace();
    const { batch, emailMessageIds } = await sendBatch({
      workspaceId: ws.workspace.id,
      sandbox: true,
      body: { emailMessages: [raw, raw] },
    });
    conforms(resources.batchResource, serializeBatch(batch, emailMessageIds));
    const detail = serializeBatchDetail(await getBatchDetail(ws.workspace.id, batch.id));
    conforms(resources.batchResource, detail);
    expect(resources.batchResource.parse(detail).counts).toMatchObject({ SUCCEEDED: 2 });
    conforms(
      resources.batchMessagesMeta,
      (await listBatchMessages(ws.workspace.id, batch.id, parseBatchMessageListQuery(new URLSearchParams()))).meta,
    );
    conforms(
      resources.messageListMeta,
      (await listMessages(ws.workspace.id, parseMessageListQuery(new URLSearchParams("limit=1")))).meta,
    );
  });

  it("WorkflowRun (a skipped one: no workflow has the key)", async () => {
    const ws = await createTestWorkspace();
    const { run } = await triggerWorkflowRun({
      workspaceId: ws.workspace.id,
      sandbox: true,
      body: { workflowKey: "not-yet", variables: { a: 1 } },
    });
    conforms(resources.workflowRunResource, serializeWorkflowRun(run));
  });

  it("Attachment", async () => {
    const ws = await createTestWorkspace();
    const { attachment, uploadUrl } = await createAttachment({
      workspaceId: ws.workspace.id,
      credential: ws.key.id,
      body: { name: "a.pdf" },
    });
    conforms(resources.attachmentResource, serializeAttachment(attachment, uploadUrl));
  });

  it("AuditEvent (the fixture's key creation, by the system)", async () => {
    const ws = await createTestWorkspace();
    const { items } = await listAuditEvents(ws.workspace.id, parseAuditListQuery(new URLSearchParams()));
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) conforms(resources.auditEventResource, serializeAuditEvent(item));
  });

  it("the Error envelope, with param and details", () => {
    conforms(
      resources.errorEnvelope,
      errorReply(new AppError("NOT_FOUND", "Template not found.", { param: "templateId" })).body,
    );
    const details = [
      {
        index: 1,
        param: "emailMessages[1].to",
        code: "EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR" as const,
        message: "to is empty.",
      },
    ];
    conforms(
      resources.errorEnvelope,
      errorReply(new AppError("EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR", "Bad batch.", { details })).body,
    );
  });
});

describe("OpenAPI webhook resources match their serializers", () => {
  it("WebhookEndpoint (with its secret once), WebhookDelivery, WebhookEvent, EventFeedMeta", async () => {
    useSettings({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_ALLOW_HTTP: "true" });
    const ws = await createTestWorkspace();
    const { endpoint, secret } = await createEndpoint(ws.workspace.id, { url: "http://127.0.0.1:9/" }, ws.key.id);
    conforms(webhooks.webhookEndpointResource, { ...serializeEndpoint(endpoint), secret });
    await sendMessage({ workspaceId: ws.workspace.id, sandbox: false, body: raw });
    // wait: on a shared server the feed serves an event once older transactions (other tests) have ended.
    const feed = await listEventFeed(ws.workspace.id, parseFeedQuery(new URLSearchParams("wait=10")));
    expect(feed.events.length).toBeGreaterThan(0);
    for (const event of feed.events) conforms(webhooks.webhookEventPayload, event);
    conforms(webhooks.eventFeedMeta, { limit: 100, nextCursor: feed.nextCursor, hasMore: feed.hasMore });
    await sendTestEvent(ws.workspace.id, endpoint.id);
    const [delivery] = await (
      await getDb()
    )
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.id));
    conforms(webhooks.webhookDeliveryResource, serializeDelivery(delivery));
    await attemptDeliveries([{ workspaceId: ws.workspace.id, endpointId: endpoint.id, deliveryId: delivery.id }]);
    const detail = await getDeliveryDetail(ws.workspace.id, endpoint.id, delivery.id);
    expect(detail.attemptLog).toHaveLength(1);
    conforms(webhooks.webhookDeliveryDetail, detail);
    useSettings({ WEBHOOKS_ALLOW_PRIVATE: undefined, WEBHOOKS_ALLOW_HTTP: undefined });
  });
});

describe("OpenAPI template management resources match their serializers", () => {
  it("TemplateVersion (summary and content), TemplateScenario, TemplateValidation (valid and not)", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate();
    const { versions } = await listTemplateVersions(ws.workspace.id, template.id);
    for (const version of versions)
      conforms(templateResources.templateVersionSummary, serializeTemplateVersionSummary(template.id, version));
    conforms(
      templateResources.templateVersionResource,
      serializeTemplateVersion(await getTemplateVersionOrThrow(ws.workspace.id, template.id, 1)),
    );
    conforms(
      templateResources.templateScenarioResource,
      serializeScenario(
        await saveTemplateScenario({
          workspaceId: ws.workspace.id,
          templateId: template.id,
          name: "A",
          variables: { a: 1 },
        }),
      ),
    );
    conforms(
      templateResources.templateValidationResource,
      serializeValidation(previewDraft({ subject: "Hi", bodyHtml: "<p>{{ a }}</p>", fromAddress: "x@example.com" })),
    );
    conforms(
      templateResources.templateValidationResource,
      serializeValidation(previewDraft({ subject: "{% if %}", bodyHtml: "<p>{{ a </p>" })),
    );
  });
});

describe("OpenAPI Workflow matches serializeWorkflow", () => {
  it("a workflow with a key, a send with every field, and a wait", async () => {
    const ws = await createWorkflowWorkspace();
    const send = {
      type: "sendEmail",
      templateId: ws.template.id,
      to: "{{ user.email }}",
      cc: "a@example.org",
      bcc: "b@example.org",
      from: "Acme <hello@example.com>",
      replyTo: "r@example.org",
    };
    const workflow = await ws.createWorkflow({ key: "signed-up", steps: [send, { type: "wait", seconds: 60 }, send] });
    conforms(workflowResources.workflowResource, serializeWorkflow(workflow));
  });
});
