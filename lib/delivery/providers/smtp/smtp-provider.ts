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

/**
 * One pooled transporter per process (docs/development.md#traps, trap 6: a connection per message costs the server's
 * greeting delay each time). Rebuilt only when the settings change (tests); closed by closeSmtpTransport.
 */
const shared = processSingleton<{ transport?: { settings: string; pool: SmtpPool } }>("smtp.transport", () => ({}));

/**
 * The `smtp` provider: hands the MIME built once by build-mime.ts, unchanged but DKIM-signed with the
 * sending domain's own key, to the relay at SMTP_URL. `referenceId` is the Message-ID: stable across
 * retries and what receivers see (a 250 reply's queue id has no standard form; it is logged instead).
 * Throws at creation, so at worker start, when SMTP_URL is missing or not an smtp(s):// URL.
 */
export function getSmtpProvider(): DeliveryProvider {
  const settings = smtpSettings();
  return {
    name: "smtp",
    description: `the SMTP relay ${new URL(settings.url).hostname}`,
    transactional: false,
    confirmsDelivery: false,
    async send(mail, { db }): Promise<ProviderResult> {
      const domain = sendingDomain(mail.fields.from);
      const dkim = mail.dkim ?? (await getDkimSigningKey(db, mail.workspaceId, domain));
      // deliverMessage checked the domain just before; only its removal in between gets here.
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

/**
 * The SMTP envelope. With BOUNCE_DOMAIN, MAIL FROM is the message's own signed return path
 * (b-<token>@BOUNCE_DOMAIN, lib/foundation/crypto/bounce-token.ts), so a bounce or complaint that comes back to
 * it names the message; the From header is the sender's, unchanged (it is in the signed MIME).
 */
export function envelopeOf(mail: OutboundMail, bounceDomain: string | undefined): SmtpEnvelope {
  const { from, to } = mimeOf(mail).envelope;
  return { from: bounceDomain ? bounceAddress(mail.messageId, bounceDomain) : from, to };
}

/** Closes the pooled connections; the next send opens new ones. Call once when the process stops. */
export function closeSmtpTransport(): void {
  shared.transport?.pool.close();
  shared.transport = undefined;
}

interface SmtpError extends Error {
  code?: string;
  response?: string;
  responseCode?: number;
  command?: string;
}

/**
 * An SMTP reply decides: 5xx is a permanent rejection (but 503, a session out of step, which a new
 * connection may not repeat), 4xx is transient. Without a reply, a message the client itself refused
 * to send (EENVELOPE, EMESSAGE: an invalid address, a message over the server's size limit) is
 * permanent; everything else (connection refused or lost, timeouts, TLS, DNS) is retried.
 */
export function smtpFailure(error: unknown): ProviderResult {
  const err = (error instanceof Error ? error : new Error(String(error))) as SmtpError;
  const code = err.responseCode;
  if (code) {
    const diagnostic = err.response?.trim() || err.message;
    return code >= 500 && code !== 503 ? { outcome: "failed", diagnostic } : { outcome: "retry", diagnostic };
  }
  const diagnostic = err.code ? `${err.message} (${err.code})` : err.message;
  if (err.code === "EENVELOPE" || err.code === "EMESSAGE") return { outcome: "failed", diagnostic };
  return { outcome: "retry", diagnostic };
}

function smtpSettings(): SmtpPoolSettings & { bounceDomain?: string } {
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
  const current = shared.transport;
  if (current?.settings === key) return current.pool;
  current?.pool.close();
  const pool = new SmtpPool(settings);
  shared.transport = { settings: key, pool };
  return pool;
}
