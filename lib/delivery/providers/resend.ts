import "server-only";
import { Resend, type CreateEmailOptions, type ErrorResponse } from "resend";
import type { DeliveryProvider, OutboundMail, ProviderResult } from "../provider";

export interface ResendSettings {
  apiKey: string;
  /** RESEND_BASE_URL: another API origin (a regional endpoint, or a local fake in tests). */
  baseUrl?: string;
}

/**
 * Sends through Resend's HTTP API (POST /emails) with the structured fields: Resend builds the MIME
 * itself. The message id is the Idempotency-Key, so a retried job (a 429, a lost answer, a worker that
 * died after the call) never sends twice: Resend answers a repeated key with the first email's id.
 */
export function resendProvider(settings: ResendSettings): DeliveryProvider {
  // The registry asks once per job: keep one client while the settings stay the same.
  const key = `${settings.apiKey}\n${settings.baseUrl ?? ""}`;
  if (cached?.key !== key) cached = { key, provider: createResendProvider(settings) };
  return cached.provider;
}

let cached: { key: string; provider: DeliveryProvider } | undefined;

function createResendProvider(settings: ResendSettings): DeliveryProvider {
  const client = new Resend(settings.apiKey, { baseUrl: settings.baseUrl?.replace(/\/$/, "") });
  return {
    name: "resend",
    description: "Resend",
    transactional: false,
    confirmsDelivery: true,
    async send(mail) {
      const { data, error } = await client.emails.send(resendPayload(mail), { idempotencyKey: mail.messageId });
      if (data?.id) return { outcome: "accepted", referenceId: data.id };
      return resultOfError(error);
    },
  };
}

/** The Resend request for one message. Text is always our own (Resend derives none for HTML-only mail). */
export function resendPayload({ fields }: OutboundMail): CreateEmailOptions {
  const headers: Record<string, string> = {};
  if (fields.references) headers.References = fields.references;
  // Group mail: RFC 8058 one-click unsubscribe, the same headers build-mime.ts writes.
  if (fields.listUnsubscribe) {
    headers["List-Unsubscribe"] = `<${fields.listUnsubscribe}>`;
    headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  }
  return {
    from: fields.from,
    to: fields.to,
    cc: fields.cc.length ? fields.cc : undefined,
    bcc: fields.bcc.length ? fields.bcc : undefined,
    replyTo: fields.replyTo ?? undefined,
    subject: fields.subject,
    html: fields.html,
    text: fields.text,
    headers: Object.keys(headers).length ? headers : undefined,
    attachments: fields.attachments.length
      ? fields.attachments.map((attachment) => ({
          filename: attachment.filename,
          content: attachment.content,
          contentType: attachment.contentType,
          contentId: attachment.cid,
        }))
      : undefined,
  };
}

/**
 * Resend's error answer → retry or failed. No status code means the request never got an answer
 * (network failure, which the SDK returns rather than throws): retry, as for 429 and 5xx. A 409
 * `concurrent_idempotent_requests` (the same key still in flight) is retried too; any other 4xx is a
 * permanent rejection whose message goes on the timeline.
 */
export function resultOfError(error: ErrorResponse | null): ProviderResult {
  if (!error) return { outcome: "retry", diagnostic: "Resend answered without an email id." };
  const status = typeof error.statusCode === "number" ? error.statusCode : null;
  const diagnostic = `${error.message || error.name}${status ? ` (HTTP ${status}, ${error.name})` : ""}`;
  const transient =
    status === null || status === 429 || status >= 500 || error.name === "concurrent_idempotent_requests";
  return transient ? { outcome: "retry", diagnostic } : { outcome: "failed", diagnostic };
}
