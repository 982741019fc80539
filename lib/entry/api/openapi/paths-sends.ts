import { sendScope } from "@/lib/domain/api-keys/scopes.shared";
import type { JsonObject } from "./components";
import {
  JSON_BODY_ERRORS,
  operation,
  pathId,
  queryParam,
  replayed,
  SEND_ERRORS,
  type OperationSpec,
} from "./operation";

const batch = (sandbox: boolean, older = false): OperationSpec => ({
  operationId: `${sandbox ? "sendSandboxBatch" : "sendBatch"}${older ? "Legacy" : ""}`,
  summary: older
    ? `The older path of POST /v1/${sandbox ? "sandbox/" : ""}batches (same behaviour)`
    : sandbox
      ? "Send a test batch (validated, rendered and stored; never delivered)"
      : "Send a batch of 1–1000 messages, all or nothing",
  description:
    "Every element is validated like a single send; one bad element rejects the batch, with `details` naming each bad index " +
    "(the status is the failures' shared one: 404 for unknown templates, 422 for senders, else 400). Body at most 10 MB.",
  tag: sandbox ? "Sandbox" : "Batches",
  scope: sendScope(sandbox),
  deprecated: older,
  body: { schema: "SendBatchRequest" },
  success: [
    { status: "201", description: "The batch, its message ids in request order.", data: "Batch" },
    { ...replayed, data: "Batch" },
  ],
  errors: SEND_ERRORS,
});

const workflowRun = (sandbox: boolean): OperationSpec => ({
  operationId: sandbox ? "triggerSandboxWorkflowRun" : "triggerWorkflowRun",
  summary: sandbox
    ? "Start a test workflow run (its emails are stored, never delivered)"
    : "Start a workflow run by id or key",
  description:
    "Exactly one of workflowId and workflowKey. An unknown workflowId is a 404; a key that matches no enabled workflow gives a SKIPPED run.",
  tag: sandbox ? "Sandbox" : "Workflow runs",
  scope: sendScope(sandbox),
  body: { schema: "TriggerWorkflowRunRequest" },
  success: [
    { status: "201", description: "The run, started.", data: "WorkflowRun" },
    { ...replayed, data: "WorkflowRun" },
  ],
  errors: [...JSON_BODY_ERRORS, "404"],
});

export const sendPaths: Record<string, JsonObject> = {
  "/v1/batches": { post: operation(batch(false)) },
  "/v1/sandbox/batches": { post: operation(batch(true)) },
  "/v1/email_messages_batch": { post: operation(batch(false, true)) },
  "/v1/sandbox/email_messages_batch": { post: operation(batch(true, true)) },
  "/v1/batches/{id}": {
    get: operation({
      operationId: "getBatch",
      summary: "Retrieve a batch with its messages counted by status",
      tag: "Batches",
      scope: "emails:read",
      parameters: [pathId("batch", "batch_")],
      success: [{ status: "200", description: "The batch, with counts.", data: "Batch" }],
      errors: ["404"],
    }),
  },
  "/v1/batches/{id}/cancel": { post: operation(cancelBatch("cancelBatch")) },
  "/v1/email_messages_batch/{id}/cancel": { post: operation(cancelBatch("cancelEmailMessagesBatch")) },
  "/v1/batches/{id}/email_messages": {
    get: operation({
      operationId: "listBatchEmailMessages",
      summary: "List a batch's messages in request order, 100 a page",
      tag: "Batches",
      scope: "emails:read",
      parameters: [
        pathId("batch", "batch_"),
        queryParam(
          "offset",
          { type: "integer", minimum: 0, default: 0 },
          "Position in the batch to start from; past the end is an empty page.",
        ),
      ],
      success: [
        {
          status: "200",
          description: "One page of the batch's messages.",
          list: { meta: "BatchMessagesMeta", item: "EmailMessage" },
        },
      ],
      errors: ["400", "404"],
    }),
  },
  "/v1/workflow_runs": { post: operation(workflowRun(false)) },
  "/v1/sandbox/workflow_runs": { post: operation(workflowRun(true)) },
  "/v1/workflow_runs/{id}": {
    get: operation({
      operationId: "getWorkflowRun",
      summary: "Retrieve a workflow run with its status and messages",
      tag: "Workflow runs",
      scope: "emails:read",
      parameters: [pathId("workflow run", "wfr_")],
      success: [{ status: "200", description: "The run.", data: "WorkflowRun" }],
      errors: ["404"],
    }),
  },
  "/v1/attachments": {
    post: operation({
      operationId: "createAttachment",
      summary: "Create an attachment and its upload URL",
      description:
        "Then PUT the bytes to uploadUrl (no other credentials, at most 40 MB, within an hour) and send with attachments[].attachmentId.",
      tag: "Attachments",
      scope: "emails:send",
      body: { schema: "CreateAttachmentRequest", optional: true },
      success: [{ status: "201", description: "The attachment, with its upload URL.", data: "Attachment" }],
      errors: JSON_BODY_ERRORS,
    }),
  },
  "/v1/audit_events": {
    get: operation({
      operationId: "listAuditEvents",
      summary: "List the workspace's audit log, newest first",
      description:
        "Every change made through the dashboard, the API, the CLI or by the system (docs/audit.md), kept AUDIT_RETENTION_DAYS. " +
        "A `full` key only. 100 a page at most, keyset cursors as for messages; the filters match exactly.",
      tag: "Audit log",
      scope: "full",
      parameters: [
        queryParam("limit", { type: "integer", minimum: 1, maximum: 100, default: 100 }, "Entries per page."),
        queryParam("cursor.after", { type: "string" }, "An audit event id: the page after it (older)."),
        queryParam("cursor.before", { type: "string" }, "An audit event id: the page before it (newer)."),
        ...(["gt", "gte", "lt", "lte"] as const).map((op) =>
          queryParam(`createdAt.${op}`, { type: "string", format: "date-time" }, `createdAt ${op} this date-time.`),
        ),
        queryParam("actorType", { type: "string", enum: ["USER", "API_KEY", "SYSTEM"] }, "Only this kind of actor."),
        queryParam("actorId", { type: "string" }, "Only this user or API key."),
        queryParam("action", { type: "string" }, "Only this action, e.g. api_key.revoke."),
        queryParam(
          "targetType",
          { type: "string" },
          "Only targets of this type (api_key, domain, template, suppression, workspace, user, invitation).",
        ),
        queryParam("targetId", { type: "string" }, "Only this target."),
      ],
      success: [
        { status: "200", description: "One page of the log.", list: { meta: "MessageListMeta", item: "AuditEvent" } },
      ],
      errors: ["400"],
    }),
  },
  "/v1/openapi.json": {
    get: operation({
      operationId: "getOpenApiDocument",
      summary: "This document",
      tag: "Meta",
      public: true,
      success: [
        {
          status: "200",
          description: "The OpenAPI 3.1 document, generated from the handlers' zod schemas.",
          content: { "application/json": { schema: { type: "object" } } },
          headers: { "Cache-Control": { description: "public, max-age=300", schema: { type: "string" } } },
        },
      ],
    }),
  },
};

function cancelBatch(operationId: string): OperationSpec {
  return {
    operationId,
    scope: "emails:send",
    summary: "Cancel every message of a batch still waiting for delivery (beyond the published API)",
    description:
      "Each message still PENDING or PAUSED and not handed over ends CANCELLED; the others are listed with their state. Always 200 for a known batch, so a retry is harmless.",
    tag: "Batches",
    parameters: [pathId("batch", "batch_")],
    success: [
      { status: "200", description: "What was cancelled, and why the rest was left.", data: "BatchCancellation" },
    ],
    errors: ["404"],
  };
}
