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
}

/** SES replaces these headers with its own values: signed, they would break our DKIM signature. */
const SES_REWRITTEN_FIELDS = ["Message-ID", "Date"];

/** The SES message tag naming our message id: it comes back in every event's `mail.tags`. */
export const MESSAGE_ID_TAG = "postwerk-message-id";

/**
 * The `ses` provider (docs/delivery.md#ses): hands the MIME built once by build-mime.ts, DKIM-signed
 * with the sending domain's own key as for SMTP (except Message-ID and Date, which SES rewrites), to
 * SES v2 `SendEmail` with `Content.Raw`, so tracking, List-Unsubscribe and our DKIM signature stay
 * ours. The envelope recipients (Bcc included) go in `Destination`; the From header names the sender.
 * `referenceId` is SES's MessageId, which every SNS notification about the message carries.
 *
 * The SDK's own retries are off (maxAttempts 1): a throttled or failed call goes back to the queue,
 * so DELIVERY_MAX_ATTEMPTS and the backoff of docs/delivery.md#retries count every hand-off.
 * SES has no idempotency key: a retry after an answer lost past acceptance sends a second copy,
 * the window SMTP has too (docs/delivery.md#crash-safety); the message id tag still names it.
 * The SDK's HTTP agent keeps up to 50 connections per process; a worker's batch is sent concurrently
 * over them (one call per message: SES has no batch call for raw mail).
 */
export function sesProvider(settings: SesSettings): DeliveryProvider {
  const key = JSON.stringify(settings);
  if (cached?.key !== key) cached = { key, provider: createSesProvider(settings) };
  return cached.provider;
}
let cached: { key: string; provider: DeliveryProvider } | undefined;

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
  const client = new SESv2Client({ region: settings.region, endpoint: settings.endpoint, maxAttempts: 1 });
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

/**
 * An SES answer decides like an SMTP reply: throttling (429, TooManyRequests, Throttling), the sending
 * quota, a paused account, 5xx and no answer at all (connection refused, reset, timeout) are retried;
 * every other 4xx (MessageRejected, MailFromDomainNotVerified, BadRequest, invalid credentials) is a
 * permanent rejection whose reason goes on the timeline.
 */
export function sesFailure(error: unknown): ProviderResult {
  const err = (error instanceof Error ? error : new Error(String(error))) as AwsError;
  const status = err.$metadata?.httpStatusCode;
  const diagnostic = `${err.message || err.name}${status ? ` (HTTP ${status}, ${err.name})` : ` (${err.name})`}`;
  const transient = status === undefined || status === 429 || status >= 500 || TRANSIENT_NAMES.has(err.name);
  return transient ? { outcome: "retry", diagnostic } : { outcome: "failed", diagnostic };
}
