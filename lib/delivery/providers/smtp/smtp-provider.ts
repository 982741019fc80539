import "server-only";
import { env } from "@/lib/foundation/env";
import { log } from "@/lib/foundation/log";
import { processSingleton } from "@/lib/foundation/process-singleton";
import { getDkimSigningKey } from "@/lib/delivery/mime/dkim-keys";
import { dkimSign } from "@/lib/delivery/mime/dkim-sign";
import { sendingDomain } from "@/lib/foundation/addresses/sender-address.shared";
import { bounceAddress } from "@/lib/foundation/crypto/bounce-token";
import { mimeOf, type DeliveryProvider, type OutboundMail, type ProviderResult } from "@/lib/delivery/provider";
import { SmtpPool, type SmtpEnvelope, type SmtpPoolSettings } from "./smtp-pool";

// One pool per process: a connection per message costs the greeting delay each time (docs/development.md#traps, 6).
// One pool per relay and credentials: the instance's and each workspace connection's.
const shared = processSingleton<{ pools: Map<string, SmtpPool> }>("smtp.transport", () => ({ pools: new Map() }));

export type SmtpSettings = SmtpPoolSettings & { bounceDomain?: string };

/**
 * The `smtp` provider: the DKIM-signed MIME to SMTP_URL. `referenceId` is the Message-ID, stable across retries
 * (a 250's queue id has no standard form). Throws at worker start when SMTP_URL is missing or wrong.
 */
export function getSmtpProvider(): DeliveryProvider {
  return smtpProvider(smtpSettings());
}

/** The provider for one relay: the instance's (SMTP_URL) or a workspace connection's. */
export function smtpProvider(settings: SmtpSettings): DeliveryProvider {
  return {
    name: "smtp",
    description: `the SMTP relay ${new URL(settings.url).hostname}`,
    transactional: false,
    confirmsDelivery: false,
    async send(mail, { db }): Promise<ProviderResult> {
      const domain = sendingDomain(mail.fields.from);
      const dkim = mail.dkim ?? (await getDkimSigningKey(db, mail.workspaceId, domain));
      // Only a domain removed since step 3's check gets here.
      if (!dkim)
        return {
          outcome: "failed",
          diagnostic: `The sender domain ${domain} is no longer a domain of this workspace.`,
        };
      try {
        // Signed here (dkim-sign.ts), off the event loop, rather than by nodemailer's `dkim` streams.
        const raw = await dkimSign(mimeOf(mail).raw, dkim);
        const info = await transport(settings).send(envelopeOf(mail, settings.bounceDomain), raw);
        const fields = { messageId: mail.messageId, response: info.response, rejected: info.rejected };
        if (info.rejected.length) log.warn("smtp relay accepted the message for some recipients only", fields);
        else log.debug("smtp relay accepted the message", fields);
        return { outcome: "accepted", referenceId: mimeOf(mail).messageIdHeader };
      } catch (error) {
        return smtpFailure(error);
      }
    },
  };
}

/** With BOUNCE_DOMAIN, MAIL FROM is the message's own signed return path, so a bounce names the message. */
export function envelopeOf(mail: OutboundMail, bounceDomain: string | undefined): SmtpEnvelope {
  const { from, to } = mimeOf(mail).envelope;
  return { from: bounceDomain ? bounceAddress(mail.messageId, bounceDomain) : from, to };
}

/** Closes the pooled connections; the next send opens new ones. Call once when the process stops. */
export function closeSmtpTransport(): void {
  for (const pool of shared.pools.values()) pool.close();
  shared.pools.clear();
}

interface SmtpError extends Error {
  code?: string;
  response?: string;
  responseCode?: number;
  command?: string;
  /** Set by the pool when no connection could be opened (smtp-pool.ts). */
  notSent?: boolean;
}

/**
 * 5xx is permanent except 503 (a session out of step), 4xx transient. Without a reply, what the client refused to
 * send (EENVELOPE, EMESSAGE) is permanent; everything else (connection, timeouts, TLS, DNS) is retried.
 */
export function smtpFailure(error: unknown): ProviderResult {
  const err = (error instanceof Error ? error : new Error(String(error))) as SmtpError;
  const code = err.responseCode;
  if (code) {
    const diagnostic = err.response?.trim() || err.message;
    if (code >= 500 && code !== 503) return { outcome: "failed", diagnostic };
    // Refused before the body was sent (the greeting, EHLO, AUTH or the envelope): the relay does not have it.
    const beforeData = err.notSent || err.code === "EENVELOPE";
    return beforeData ? { outcome: "retry", diagnostic, notAccepted: true } : { outcome: "retry", diagnostic };
  }
  const diagnostic = err.code ? `${err.message} (${err.code})` : err.message;
  if (err.code === "EENVELOPE" || err.code === "EMESSAGE") return { outcome: "failed", diagnostic };
  return err.notSent ? { outcome: "retry", diagnostic, notAccepted: true } : { outcome: "retry", diagnostic };
}

function smtpSettings(): SmtpSettings {
  const values = env();
  const url = values.SMTP_URL;
  if (!url) {
    throw new Error(
      "DELIVERY_PROVIDER=smtp needs SMTP_URL, e.g. smtps://user:pass@smtp.example.com:465 or smtp://smtp.example.com:587 (STARTTLS).",
    );
  }
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new Error("SMTP_URL is not a URL: expected smtp://host:port or smtps://host:port.");
  }
  if (protocol !== "smtp:" && protocol !== "smtps:") {
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, not ${protocol}//.`);
  }
  return {
    url,
    poolSize: values.SMTP_POOL_SIZE,
    rejectUnauthorized: values.SMTP_TLS_REJECT_UNAUTHORIZED,
    timeoutMs: values.SMTP_TIMEOUT_MS,
    bounceDomain: values.BOUNCE_DOMAIN,
  };
}

function transport({ url, poolSize, rejectUnauthorized, timeoutMs }: SmtpPoolSettings): SmtpPool {
  const settings = { url, poolSize, rejectUnauthorized, timeoutMs };
  const key = JSON.stringify(settings);
  let pool = shared.pools.get(key);
  if (!pool) {
    pool = new SmtpPool(settings);
    shared.pools.set(key, pool);
  }
  return pool;
}
