import { WEBHOOK_DELIVERY_STATUSES } from "@/db/schema";
import type { JsonObject } from "./components";
import { JSON_BODY_ERRORS, operation, pathId, queryParam } from "./operation";

const tag = "Webhooks";
const endpointId = pathId("webhook endpoint", "whep_");
const keyset = (what: string): JsonObject[] => [
  queryParam("limit", { type: "integer", minimum: 1, maximum: 100, default: 100 }, `${what} per page.`),
  queryParam("cursor.after", { type: "string" }, "An id: the page after it (older)."),
  queryParam("cursor.before", { type: "string" }, "An id: the page before it (newer)."),
];

/** /v1/webhook_endpoints and /v1/events (beyond the published API; docs/webhooks.md). */
export const webhookPaths: Record<string, JsonObject> = {
  "/v1/webhook_endpoints": {
    get: operation({
      operationId: "listWebhookEndpoints",
      scope: "webhooks:write",
      summary: "List webhook endpoints, newest first",
      tag,
      parameters: keyset("Endpoints"),
      success: [
        {
          status: "200",
          description: "One page of endpoints.",
          list: { meta: "MessageListMeta", item: "WebhookEndpoint" },
        },
      ],
      errors: ["400"],
    }),
    post: operation({
      operationId: "createWebhookEndpoint",
      scope: "webhooks:write",
      summary: "Create a webhook endpoint; the answer carries its signing secret, shown once",
      description:
        "The URL is checked (https; no private, loopback or metadata address unless the operator allows it) and resolved. At most 50 per workspace (409).",
      tag,
      body: { schema: "CreateWebhookEndpointRequest" },
      success: [{ status: "201", description: "The endpoint, with `secret`.", data: "WebhookEndpoint" }],
      errors: [...JSON_BODY_ERRORS, "409"],
    }),
  },
  "/v1/webhook_endpoints/{id}": {
    get: operation({
      operationId: "getWebhookEndpoint",
      scope: "webhooks:write",
      summary: "Retrieve a webhook endpoint",
      tag,
      parameters: [endpointId],
      success: [{ status: "200", description: "The endpoint.", data: "WebhookEndpoint" }],
      errors: ["404"],
    }),
    patch: operation({
      operationId: "updateWebhookEndpoint",
      scope: "webhooks:write",
      summary: "Update a webhook endpoint (enabling it clears the reason the service disabled it for)",
      tag,
      parameters: [endpointId],
      body: { schema: "UpdateWebhookEndpointRequest" },
      success: [{ status: "200", description: "The endpoint.", data: "WebhookEndpoint" }],
      errors: [...JSON_BODY_ERRORS, "404"],
    }),
    delete: operation({
      operationId: "deleteWebhookEndpoint",
      scope: "webhooks:write",
      summary: "Delete a webhook endpoint with its deliveries",
      tag,
      parameters: [endpointId],
      success: [{ status: "200", description: "Deleted.", data: "Deleted" }],
      errors: ["404"],
    }),
  },
  "/v1/webhook_endpoints/{id}/rotate_secret": {
    post: operation({
      operationId: "rotateWebhookEndpointSecret",
      scope: "webhooks:write",
      summary: "Rotate the signing secret: the old one signs alongside the new one for 24 hours",
      tag,
      parameters: [endpointId],
      success: [{ status: "200", description: "The endpoint, with the new `secret`.", data: "WebhookEndpoint" }],
      errors: [...JSON_BODY_ERRORS, "404"],
    }),
  },
  "/v1/webhook_endpoints/{id}/test": {
    post: operation({
      operationId: "testWebhookEndpoint",
      scope: "webhooks:write",
      summary: "Queue a signed webhook.test event to this endpoint alone",
      tag,
      parameters: [endpointId],
      success: [{ status: "200", description: "The test event and its delivery.", data: "WebhookTestResult" }],
      errors: [...JSON_BODY_ERRORS, "404"],
    }),
  },
  "/v1/webhook_endpoints/{id}/replay": {
    post: operation({
      operationId: "replayWebhookEndpoint",
      scope: "webhooks:write",
      summary: "Send again what the endpoint missed (or everything) since a time",
      description: "New deliveries of the same events (same webhook-id). 409 while the endpoint is disabled.",
      tag,
      parameters: [endpointId],
      body: { schema: "ReplayWebhookEndpointRequest" },
      success: [{ status: "200", description: "How many were queued.", data: "WebhookReplayResult" }],
      errors: [...JSON_BODY_ERRORS, "404", "409"],
    }),
  },
  "/v1/webhook_endpoints/{id}/deliveries": {
    get: operation({
      operationId: "listWebhookDeliveries",
      scope: "webhooks:write",
      summary: "List an endpoint's deliveries, newest first",
      tag,
      parameters: [
        endpointId,
        ...keyset("Deliveries"),
        queryParam(
          "status",
          { type: "string", enum: [...WEBHOOK_DELIVERY_STATUSES] },
          "Only deliveries in this state.",
        ),
        queryParam("eventType", { type: "string" }, "Only this event type."),
        queryParam("emailMessageId", { type: "string" }, "Only this message's."),
      ],
      success: [
        {
          status: "200",
          description: "One page of deliveries.",
          list: { meta: "MessageListMeta", item: "WebhookDelivery" },
        },
      ],
      errors: ["400", "404"],
    }),
  },
  "/v1/webhook_endpoints/{id}/deliveries/{deliveryId}": {
    get: operation({
      operationId: "getWebhookDelivery",
      scope: "webhooks:write",
      summary:
        "Retrieve a delivery with every attempt (status, latency, first 4 KB of the answer, error) and its payload",
      tag,
      parameters: [
        endpointId,
        {
          name: "deliveryId",
          in: "path",
          required: true,
          description: "The delivery id (whdl_…).",
          schema: { type: "string" },
        },
      ],
      success: [{ status: "200", description: "The delivery.", data: "WebhookDeliveryDetail" }],
      errors: ["404"],
    }),
  },
  "/v1/events": {
    get: operation({
      operationId: "listEvents",
      scope: "emails:read",
      summary: "The workspace's event feed: the webhook payloads in recorded order after a cursor",
      description:
        "Store meta.nextCursor after processing a page and pass it as after= next time: each event is processed once. With wait, an empty page waits up to that many seconds for the next event.",
      tag,
      parameters: [
        queryParam("after", { type: "string" }, "A meta.nextCursor; absent: from the oldest event kept."),
        queryParam("types", { type: "string" }, "Comma-separated event types."),
        queryParam("limit", { type: "integer", minimum: 1, maximum: 1000, default: 100 }, "Events per page."),
        queryParam(
          "wait",
          { type: "integer", minimum: 0, maximum: 30, default: 0 },
          "Long-poll: seconds to wait for an event when there is none.",
        ),
      ],
      success: [
        { status: "200", description: "One page of events.", list: { meta: "EventFeedMeta", item: "WebhookEvent" } },
      ],
      errors: ["400"],
    }),
  },
};
