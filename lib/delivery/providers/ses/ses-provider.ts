import "server-only";
import { SendEmailCommand, SESv2Client } from "@aws-sdk/client-sesv2";
import { env } from "@/lib/foundation/env";
import { log } from "@/lib/foundation/log";
import { getDkimSigningKey } from "@/lib/delivery/mime/dkim-keys";
import { dkimSign } from "@/lib/delivery/mime/dkim-sign";
import { sendingDomain } from "@/lib/foundation/addresses/sender-address.shared";
import { mimeOf, type DeliveryProvider, type OutboundMail, type ProviderResult } from "@/lib/delivery/provider";

export interface SesSettings {
  region: string;
  /** SES_CONFIGURATION_SET: the set whose event destination publishes to the SNS topic. */
  configurationSet?: string;
  /** SES_ENDPOINT: another API origin (a VPC endpoint, or a local stand-in in tests). */
  endpoint?: string;
  /** A workspace connection's own keys; absent (the instance's connection): the SDK's default chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** SES replaces these headers with its own values: signed, they would break our DKIM signature. */
const SES_REWRITTEN_FIELDS = ["Message-ID", "Date"];

/** The SES message tag naming our message id: it comes back in every event's `mail.tags`. */
export const MESSAGE_ID_TAG = "postwerk-message-id";

/**
 * The `ses` provider (docs/delivery.md#ses): our DKIM-signed MIME as `Content.Raw`, so tracking and signature stay
 * ours. The SDK's retries are off so DELIVERY_MAX_ATTEMPTS counts every hand-off; SES has no idempotency key.
 */
export function sesProvider(settings: SesSettings): DeliveryProvider {
  const key = JSON.stringify(settings);
  let provider = cached.get(key);
  if (!provider) {
    if (cached.size >= 1000) cached.clear();
    cached.set(key, (provider = createSesProvider(settings)));
  }
  return provider;
}
const cached = new Map<string, DeliveryProvider>();

/** The provider from the settings; throws at worker start when no region is configured. */
export function getSesProvider(): DeliveryProvider {
  const { AWS_REGION, SES_CONFIGURATION_SET, SES_ENDPOINT } = env();
  if (!AWS_REGION) {
    throw new Error("DELIVERY_PROVIDER=ses needs AWS_REGION, the region of your SES account (e.g. eu-west-1).");
  }
  return sesProvider({ region: AWS_REGION, configurationSet: SES_CONFIGURATION_SET, endpoint: SES_ENDPOINT });
}

function createSesProvider(settings: SesSettings): DeliveryProvider {
  // Credentials come from the SDK's default chain: AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, shared files, roles.
  const client = new SESv2Client({
    region: settings.region,
    endpoint: settings.endpoint,
    credentials: settings.credentials,
    maxAttempts: 1,
  });
  return {
    name: "ses",
    description: "Amazon SES",
    transactional: false,
    confirmsDelivery: true,
    needsMime: true,
    async send(mail, { db }): Promise<ProviderResult> {
      const domain = sendingDomain(mail.fields.from);
      const dkim = mail.dkim ?? (await getDkimSigningKey(db, mail.workspaceId, domain));
      if (!dkim)
        return {
          outcome: "failed",
          diagnostic: `The sender domain ${domain} is no longer a domain of this workspace.`,
        };
      const raw = await dkimSign(mimeOf(mail).raw, dkim, { unsignedFields: SES_REWRITTEN_FIELDS });
      try {
        const answer = await client.send(sendEmailCommand(mail, raw, settings));
        if (!answer.MessageId) return { outcome: "retry", diagnostic: "SES answered without a MessageId." };
        log.debug("ses accepted the message", { messageId: mail.messageId, sesMessageId: answer.MessageId });
        return { outcome: "accepted", referenceId: answer.MessageId };
      } catch (error) {
        return sesFailure(error);
      }
    },
  };
}

function sendEmailCommand(mail: OutboundMail, raw: string, settings: SesSettings): SendEmailCommand {
  return new SendEmailCommand({
    Destination: { ToAddresses: mimeOf(mail).envelope.to },
    Content: { Raw: { Data: Buffer.from(raw) } },
    ConfigurationSetName: settings.configurationSet,
    EmailTags: [{ Name: MESSAGE_ID_TAG, Value: mail.messageId }],
  });
}

interface AwsError extends Error {
  $metadata?: { httpStatusCode?: number };
  $fault?: "client" | "server";
}

/** SES errors that go away by themselves: throttling, the daily quota, a pause of sending. */
const TRANSIENT_NAMES = new Set([
  "TooManyRequestsException",
  "ThrottlingException",
  "Throttling",
  "LimitExceededException",
  "SendingPausedException",
  "InternalServiceErrorException",
  "ServiceUnavailable",
  "RequestTimeout",
  "TimeoutError",
]);

/** Throttling, the quota, a paused account, 5xx and no answer are retried; any other 4xx is a permanent rejection. */
export function sesFailure(error: unknown): ProviderResult {
  const err = (error instanceof Error ? error : new Error(String(error))) as AwsError;
  const status = err.$metadata?.httpStatusCode;
  const diagnostic = `${err.message || err.name}${status ? ` (HTTP ${status}, ${err.name})` : ` (${err.name})`}`;
  const transient = status === undefined || status === 429 || status >= 500 || TRANSIENT_NAMES.has(err.name);
  if (!transient) return { outcome: "failed", diagnostic };
  // An HTTP answer (throttling, 5xx) means SES did not take it; no answer at all is unclear.
  return status === undefined ? { outcome: "retry", diagnostic } : { outcome: "retry", diagnostic, notAccepted: true };
}
