import { z } from "zod";
import { WEBHOOK_DELIVERY_STATUSES } from "@/db/schema";
import { WEBHOOK_EVENT_TYPES } from "@/lib/records/timeline/webhook-event-types.shared";
import { emailMessageLogResource, emailMessageResource, workflowRunResource } from "./resources";

/** The webhook resources (beyond the published API; docs/webhooks.md), checked against their serializers like the others. */
const timestamp = z.iso.datetime().describe("ISO 8601 UTC with milliseconds.");
const id = (prefix: string) => z.string().describe(`A "${prefix}" prefix and 16 base62 characters.`);

export const webhookEndpointResource = z.object({
  id: id("whep_"),
  type: z.literal("WebhookEndpoint"),
  createdAt: timestamp,
  updatedAt: timestamp,
  url: z.string().describe("Where events are POSTed: https (http only when the operator allows it)."),
  description: z.string(),
  eventTypes: z
    .array(z.enum(WEBHOOK_EVENT_TYPES))
    .nullable()
    .describe("The types it receives; null: every type, including future ones."),
  enabled: z.boolean(),
  disabledReason: z
    .string()
    .nullable()
    .describe("Why the service disabled it (failing 5 days, or too many failed deliveries in a row)."),
  previousSecretExpiresAt: timestamp
    .nullable()
    .describe("After a rotation: until when the previous secret still signs (alongside the new one)."),
  createdBy: z.string().nullable().describe("The API key (key_…) or user (user_…) that created it."),
  updatedBy: z.string().nullable(),
  secret: z
    .string()
    .optional()
    .describe("The signing secret (whsec_…): only in the answers of create and rotate_secret, never again."),
});

export const webhookDeliveryResource = z.object({
  id: id("whdl_"),
  type: z.literal("WebhookDelivery"),
  createdAt: timestamp,
  updatedAt: timestamp,
  endpointId: z.string(),
  eventId: z.string().describe("The event (evt_…), also the webhook-id header: dedupe on it."),
  eventType: z.string(),
  emailMessageId: z.string().nullable(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.int(),
  nextAttemptAt: timestamp.nullable().describe("When the next attempt is due, while pending."),
  lastAttemptAt: timestamp.nullable(),
  lastStatus: z.int().nullable().describe("The last answer's HTTP status; null when none came."),
  lastLatencyMs: z.int().nullable(),
  lastError: z.string().nullable(),
});

/** workspace.deliverability_warning's data (docs/deliverability.md#complaint-guard): what crossed, and the counts. */
const deliverabilityWarningData = {
  workspaceId: z.string().optional().describe("workspace.deliverability_warning: the workspace."),
  reason: z.string().optional().describe("workspace.deliverability_warning: the sentence the dashboard shows."),
  kind: z.enum(["complaint", "bounce"]).optional().describe("workspace.deliverability_warning: which rate."),
  rate: z.number().optional().describe("workspace.deliverability_warning: the rate, 0–1."),
  warnAt: z.number().optional().describe("workspace.deliverability_warning: half the pause threshold."),
  pauseAt: z.number().optional().describe("workspace.deliverability_warning: the pause threshold."),
  sent: z.int().optional().describe("workspace.deliverability_warning: live messages in the window."),
  bounced: z.int().optional(),
  complained: z.int().optional(),
};

/** provider.circuit_opened and provider.circuit_closed's data (docs/delivery.md#circuit-breakers). */
const circuitData = {
  connection: z
    .object({ id: z.string(), name: z.string(), kind: z.string() })
    .optional()
    .describe("provider.circuit_*: the connection (`default` is the instance's)."),
  state: z.enum(["open", "closed", "half_open"]).optional().describe("provider.circuit_*: the state entered."),
  failures: z.int().optional().describe("provider.circuit_opened: the failures in a row that opened it."),
  lastError: z.string().nullable().optional().describe("provider.circuit_opened: the last failure."),
  retryAt: z.string().nullable().optional().describe("provider.circuit_opened: when one message probes it."),
};

export const webhookEventPayload = z.object({
  id: id("evt_"),
  type: z
    .string()
    .describe(`One of ${WEBHOOK_EVENT_TYPES.join(", ")} (webhook.test for test events, never in the feed).`),
  createdAt: timestamp.describe("When the timeline event happened."),
  data: z.object({
    message: emailMessageResource
      .nullable()
      .optional()
      .describe(
        "email.*: the message as GET /v1/email_messages/{id} returns it when sent or served; null if erased since.",
      ),
    event: emailMessageLogResource
      .extend({ bot: z.boolean().describe("Scanner or prefetch traffic (opens, clicks).") })
      .nullable()
      .optional()
      .describe("email.*: the timeline event."),
    workflowRun: workflowRunResource
      .nullable()
      .optional()
      .describe("workflow_run.*: the run as GET /v1/workflow_runs/{id} returns it."),
    ...deliverabilityWarningData,
    ...circuitData,
  }),
});

export const eventFeedMeta = z.object({
  limit: z.int(),
  nextCursor: z
    .string()
    .describe(
      "Pass as after= for the next page; the same cursor when nothing new. Store it after processing the page.",
    ),
  hasMore: z.boolean().describe("The page was full: ask again at once."),
});

export const replayResult = z.object({
  replayed: z.int().describe("Deliveries queued."),
  more: z.boolean().describe("More than 10,000 events matched: call again with a later since."),
});

export const testEventResult = z.object({ eventId: z.string(), deliveryId: z.string() });
export const deletedResult = z.object({ id: z.string(), deleted: z.literal(true) });

export const webhookAttemptResource = z.object({
  id: id("what_"),
  type: z.literal("WebhookAttempt"),
  createdAt: timestamp.describe("When the attempt was made."),
  deliveryId: z.string(),
  attempt: z.int().describe("1 for the first."),
  status: z.int().nullable().describe("The HTTP status; null when no answer came."),
  latencyMs: z.int(),
  responseBody: z.string().nullable().describe("The first 4 KB of the answer's body."),
  error: z
    .string()
    .nullable()
    .describe("Timeout, connection closed or refused, redirect not followed, refused target."),
});

export const webhookDeliveryDetail = webhookDeliveryResource.extend({
  attemptLog: z
    .array(webhookAttemptResource)
    .describe("Every attempt, oldest first (kept WEBHOOK_LOG_RETENTION_DAYS)."),
  payload: webhookEventPayload
    .nullable()
    .describe("The body it sends, built now as the next attempt would; null once the event is purged."),
});
