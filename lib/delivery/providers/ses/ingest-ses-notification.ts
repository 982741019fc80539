import "server-only";
import { env } from "@/lib/foundation/env";
import { AppError } from "@/lib/foundation/errors";
import { log } from "@/lib/foundation/log";
import { metrics } from "@/lib/foundation/metrics/metrics";
import {
  recordProviderEvent,
  type MessageRef,
  type ProviderEventResult,
} from "@/lib/delivery/provider-events/record-provider-event";
import { confirmSnsSubscription } from "./confirm-sns-subscription";
import { mapSesEvent, sesEventSchema, type MappedSesEvent } from "./ses-events";
import { MESSAGE_ID_TAG } from "./ses-provider";
import { parseSnsMessage, verifySnsMessage, type SnsMessage } from "./sns-message";

export type SesIngestResult =
  | { outcome: "recorded" | "duplicate"; messageId: string }
  | { outcome: "confirmed"; topicArn: string }
  | { outcome: "ignored"; reason: string };

/** An unknown SES id is answered 503 (SNS retries only 5xx) for this long: a notification can overtake the commit. */
export const UNKNOWN_MESSAGE_RETRY_WINDOW_MS = 60 * 60 * 1000;

const OUR_MESSAGE_ID = /^em_[0-9A-Za-z]{16}$/;

/**
 * POST /api/provider-events/ses (docs/delivery.md#ses-1): a topic not in SES_SNS_TOPIC_ARNS → FORBIDDEN before
 * anything is fetched; a bad signature or an old Timestamp → UNAUTHORIZED. Idempotent by the SNS MessageId.
 */
export async function ingestSesNotification(body: string, connection?: SesEventsConnection): Promise<SesIngestResult> {
  const topics = connection ? connection.topicArns : (env().SES_SNS_TOPIC_ARNS ?? []);
  const setting = connection ? "the connection's snsTopicArns" : "SES_SNS_TOPIC_ARNS";
  if (topics.length === 0) {
    log.error(`an SNS notification arrived but ${setting} is not set`);
    throw new AppError("SERVICE_UNAVAILABLE", `SES events are not accepted yet: ${setting} is not set.`);
  }
  const message = parseSnsMessage(body);
  if (!topics.includes(message.TopicArn)) {
    log.warn(`SNS message from a topic not in ${setting} refused`, { topicArn: message.TopicArn, type: message.Type });
    throw new AppError("FORBIDDEN", `Topic ${message.TopicArn} is not one of ${setting}.`, { param: "TopicArn" });
  }
  await verifySnsMessage(message);
  switch (message.Type) {
    case "SubscriptionConfirmation":
      await confirmSnsSubscription(message);
      return { outcome: "confirmed", topicArn: message.TopicArn };
    case "UnsubscribeConfirmation":
      // Not re-subscribed on our own: whoever unsubscribed meant it (its SubscribeURL would undo it).
      log.warn("SNS topic unsubscribed this endpoint", { topicArn: message.TopicArn });
      return { outcome: "ignored", reason: "The endpoint was unsubscribed from the topic." };
    case "Notification":
      return ingestNotification(message, connection?.workspaceId);
  }
}

/** A workspace connection's events endpoint: the topics it takes; its events touch only its workspace's messages. */
export interface SesEventsConnection {
  workspaceId: string;
  topicArns: string[];
}

async function ingestNotification(notification: SnsMessage, workspaceId?: string): Promise<SesIngestResult> {
  const parsed = sesEventSchema.safeParse(parseJsonOrNull(notification.Message));
  // SES's own test message ("Successfully validated SNS topic…") and anything else published to the topic.
  if (!parsed.success) return ignored("other", "The notification is not an SES event.");
  const event = mapSesEvent(parsed.data);
  const type = parsed.data.eventType ?? parsed.data.notificationType ?? "unknown";
  if (!event) return ignored(type, `SES event ${type} is not recorded.`);

  const sesMessageId = parsed.data.mail.messageId;
  const recorded = await record({ referenceId: sesMessageId, workspaceId }, event, notification);
  if (recorded.outcome !== "unknown-message") return recorded;
  // A second copy (a retry after a lost answer) has another SES id; our tag still names the message.
  const tagged = parsed.data.mail.tags?.[MESSAGE_ID_TAG]?.[0];
  if (tagged && OUR_MESSAGE_ID.test(tagged)) {
    const byTag = await record({ messageId: tagged, workspaceId }, event, notification);
    if (byTag.outcome !== "unknown-message") return byTag;
  }
  if (Date.now() - event.at.getTime() < UNKNOWN_MESSAGE_RETRY_WINDOW_MS) {
    throw new AppError("SERVICE_UNAVAILABLE", `No message has SES message id ${sesMessageId} yet; retry later.`);
  }
  log.warn("SES event for an unknown message dropped", { sesMessageId, type, snsMessageId: notification.MessageId });
  return ignored(type, `No message has SES message id ${sesMessageId}.`);
}

function record(ref: MessageRef, event: MappedSesEvent, notification: SnsMessage): Promise<ProviderEventResult> {
  return recordProviderEvent(ref, {
    source: "ses",
    type: event.type,
    code: event.code,
    message: event.message,
    at: event.at,
    // Send repeats what the send call's answer already recorded (`ses:sent`): one SENT per message.
    providerEventId: event.type === "Send" ? "ses:sent" : `ses:${notification.MessageId}`,
    details: { ...event.details, snsMessageId: notification.MessageId },
    suppress: event.suppress,
    recipients: event.recipients,
  });
}

/** postwerk_provider_events_total for what is not recorded; recordProviderEvent counts the rest. */
function ignored(type: string, reason: string): SesIngestResult {
  metrics().providerEvents.inc({ provider: "ses", type, result: "ignored" });
  return { outcome: "ignored", reason };
}

function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
