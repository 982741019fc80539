import type { webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/db/schema";

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** The public WebhookEndpoint (docs/api.md#webhook-endpoints). Never the secret: it is shown once, at creation or rotation. */
export function serializeEndpoint(endpoint: typeof webhookEndpoints.$inferSelect) {
  return {
    id: endpoint.id,
    type: "WebhookEndpoint" as const,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
    url: endpoint.url,
    description: endpoint.description,
    eventTypes: endpoint.eventTypes,
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason,
    previousSecretExpiresAt: iso(endpoint.previousSecretExpiresAt),
    createdBy: endpoint.createdBy,
    updatedBy: endpoint.updatedBy,
  };
}

export function serializeDelivery(delivery: typeof webhookDeliveries.$inferSelect) {
  return {
    id: delivery.id,
    type: "WebhookDelivery" as const,
    createdAt: delivery.createdAt.toISOString(),
    updatedAt: delivery.updatedAt.toISOString(),
    endpointId: delivery.endpointId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    emailMessageId: delivery.emailMessageId,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.status === "pending" ? delivery.nextAttemptAt.toISOString() : null,
    lastAttemptAt: iso(delivery.lastAttemptAt),
    lastStatus: delivery.lastStatus,
    lastLatencyMs: delivery.lastLatencyMs,
    lastError: delivery.lastError,
  };
}

export function serializeAttempt(attempt: typeof webhookAttempts.$inferSelect) {
  return {
    id: attempt.id,
    type: "WebhookAttempt" as const,
    createdAt: attempt.createdAt.toISOString(),
    deliveryId: attempt.deliveryId,
    attempt: attempt.attempt,
    status: attempt.status,
    latencyMs: attempt.latencyMs,
    responseBody: attempt.responseBody,
    error: attempt.error,
  };
}
