import "server-only";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { env } from "@/lib/foundation/env";
import { AppError, invalidParameter } from "@/lib/foundation/errors";
import { log } from "@/lib/foundation/log";
import { metrics } from "@/lib/foundation/metrics/metrics";
import { recordProviderEvent } from "@/lib/delivery/provider-events/record-provider-event";
import { mapResendEvent, parseResendTime, resendEventSchema } from "./resend-events";

export interface ResendDelivery {
  /** The raw body, exactly as received: the signature covers these bytes. */
  body: string;
  headers: Headers;
}

export type IngestResult =
  { outcome: "recorded" | "duplicate"; messageId: string } | { outcome: "ignored"; reason: string };

/**
 * An unknown email id is answered 409 (Resend retries) for this long: a webhook can overtake the send's commit.
 * Past it the email is another application's, and a 2xx keeps Resend from disabling the endpoint.
 */
export const UNKNOWN_EMAIL_RETRY_WINDOW_MS = 60 * 60 * 1000;

/**
 * POST /api/provider-events/resend: a bad Svix signature or one older than 5 minutes → UNAUTHORIZED; the message
 * is found by data.email_id in any workspace. Idempotent: the svix-id is the providerEventId.
 */
export async function ingestResendEvent(
  delivery: ResendDelivery,
  connection?: EventsConnection,
): Promise<IngestResult> {
  const secrets = connection
    ? connection.secrets
    : [env().RESEND_WEBHOOK_SECRET].filter((value) => value !== undefined);
  if (secrets.length === 0) {
    const setting = connection ? "the connection's webhookSecret" : "RESEND_WEBHOOK_SECRET";
    log.error(`a Resend webhook arrived but ${setting} is not set`);
    throw new AppError("SERVICE_UNAVAILABLE", `Resend events are not accepted yet: ${setting} is not set.`);
  }
  const eventId = verifyWithAny(secrets, delivery);
  const parsed = resendEventSchema.safeParse(parseJson(delivery.body));
  if (!parsed.success)
    throw invalidParameter(
      parsed.error.issues[0].path.join("."),
      "Not a Resend event: " + parsed.error.issues[0].message,
    );
  const event = parsed.data;
  const at = parseResendTime(event.created_at);
  if (!at) throw invalidParameter("created_at", `Unreadable event time "${event.created_at}".`);
  const mapped = mapResendEvent(event, at);
  if (!mapped) return ignored(event.type, `Event type ${event.type} is not recorded.`);
  const emailId = event.data.email_id;
  if (!emailId) throw invalidParameter("data.email_id", `A ${event.type} event needs data.email_id.`);

  const result = await recordProviderEvent(
    { referenceId: emailId, workspaceId: connection?.workspaceId },
    {
      source: "resend",
      type: event.type,
      code: mapped.code,
      message: mapped.message,
      at,
      // email.sent repeats what the send call's answer already recorded: one SENT per message.
      providerEventId: event.type === "email.sent" ? "resend:sent" : `resend:${eventId}`,
      details: { ...mapped.details, eventId },
      suppress: mapped.suppress,
    },
  );
  if (result.outcome !== "unknown-message") return result;
  if (Date.now() - at.getTime() < UNKNOWN_EMAIL_RETRY_WINDOW_MS) {
    throw new AppError("CONFLICT", `No message has Resend email id ${emailId} yet; retry later.`);
  }
  log.warn("Resend event for an unknown email dropped", { emailId, type: event.type, eventId });
  return ignored(event.type, `No message has Resend email id ${emailId}.`);
}

/** postwerk_provider_events_total for what is not recorded; recordProviderEvent counts the rest. */
function ignored(type: string, reason: string): IngestResult {
  metrics().providerEvents.inc({ provider: "resend", type, result: "ignored" });
  return { outcome: "ignored", reason };
}

/** A workspace connection's events endpoint: its current secret and, for a day after a rotation, the one before. */
export interface EventsConnection {
  workspaceId: string;
  secrets: string[];
}

/** The first secret that verifies; the last one's refusal otherwise. */
function verifyWithAny(secrets: string[], delivery: ResendDelivery): string {
  for (const [index, secret] of secrets.entries()) {
    try {
      return verifySignature(secret, delivery);
    } catch (error) {
      if (index === secrets.length - 1) throw error;
    }
  }
  throw new Error("unreachable: no secret to verify with");
}

/** Returns the event id (svix-id). */
function verifySignature(secret: string, { body, headers }: ResendDelivery): string {
  // Resend sends svix-*; the Standard Webhooks names are the same values.
  const header = (name: string) => headers.get(`svix-${name}`) ?? headers.get(`webhook-${name}`);
  const id = header("id");
  const timestamp = header("timestamp");
  const signature = header("signature");
  if (!id || !timestamp || !signature) {
    throw new AppError(
      "UNAUTHORIZED",
      "Missing webhook signature: svix-id, svix-timestamp and svix-signature are required.",
    );
  }
  try {
    new Webhook(secret).verify(
      body,
      { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signature },
      { jsonParse: false },
    );
    return id;
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      throw new AppError("UNAUTHORIZED", `Webhook signature rejected: ${error.message}.`);
    }
    throw error;
  }
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new AppError("INVALID_JSON", "The event body is not valid JSON.");
  }
}
