import "server-only";
import { createHash } from "node:crypto";
import { Resend, type CreateBatchEmailOptions, type CreateEmailOptions, type ErrorResponse } from "resend";
import type { DeliveryProvider, OutboundMail, ProviderResult } from "@/lib/delivery/provider";

export interface ResendSettings {
  apiKey: string;
  /** RESEND_BASE_URL: another API origin (a regional endpoint, or a local fake in tests). */
  baseUrl?: string;
}

/**
 * Sends through Resend's HTTP API (POST /emails) with the structured fields: Resend builds the MIME
 * itself. The message id is the Idempotency-Key, so a retried job (a 429, a lost answer, a worker that
 * died after the call) never sends twice: Resend answers a repeated key with the first email's id.
 * Several messages held by a worker at once go through POST /emails/batch (sendMany, below).
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
    needsMime: false,
    send: sendOne,
    sendMany: (mails) => sendResendBatches(client, mails, sendOne),
  };

  async function sendOne(mail: OutboundMail): Promise<ProviderResult> {
    const { data, error } = await client.emails.send(resendPayload(mail), { idempotencyKey: mail.messageId });
    if (data?.id) return { outcome: "accepted", referenceId: data.id };
    return resultOfError(error);
  }
}

/** Resend's batch endpoint takes at most 100 emails per call. */
const RESEND_BATCH_LIMIT = 100;

type SendOne = (mail: OutboundMail) => Promise<ProviderResult>;

/**
 * Several messages through POST /emails/batch, one result per mail in order. Messages with
 * attachments go singly (the batch endpoint does not take attachments), as does a lone message.
 * Each call's Idempotency-Key is derived from the sorted set of its message ids (batchIdempotencyKey),
 * and the emails are sent in that order, so a retried batch of the same messages is the same request.
 * 429, 5xx and network failures retry every message of the call; a validation error (400/422) of the
 * batch falls back to single sends, so one bad message fails alone.
 */
async function sendResendBatches(client: Resend, mails: OutboundMail[], sendOne: SendOne): Promise<ProviderResult[]> {
  const results: ProviderResult[] = new Array(mails.length);
  const indexes = mails.map((_, index) => index);
  const batchable = indexes.filter((index) => mails[index].fields.attachments.length === 0);
  const singly = batchable.length > 1 ? indexes.filter((index) => !batchable.includes(index)) : indexes;
  const batched = batchable.length > 1 ? batchable : [];
  batched.sort((a, b) => (mails[a].messageId < mails[b].messageId ? -1 : 1));
  const calls: Array<Promise<void>> = singly.map(async (index) => void (results[index] = await sendOne(mails[index])));
  for (let start = 0; start < batched.length; start += RESEND_BATCH_LIMIT) {
    const chunk = batched.slice(start, start + RESEND_BATCH_LIMIT);
    calls.push(
      sendChunk(client, chunk.map((index) => mails[index]), sendOne).then((answers) => {
        chunk.forEach((index, position) => (results[index] = answers[position]));
      }),
    );
  }
  await Promise.all(calls);
  return results;
}

async function sendChunk(client: Resend, mails: OutboundMail[], sendOne: SendOne): Promise<ProviderResult[]> {
  if (mails.length === 1) return [await sendOne(mails[0])];
  const { data, error } = await client.batch.send(mails.map(batchPayload), {
    idempotencyKey: batchIdempotencyKey(mails.map((mail) => mail.messageId)),
  });
  const ids = data?.data;
  if (ids && ids.length === mails.length) return ids.map(({ id }) => ({ outcome: "accepted", referenceId: id }));
  const status = typeof error?.statusCode === "number" ? error.statusCode : null;
  // Strict validation rejects the whole batch and creates nothing: sending singly is safe.
  if (status === 400 || status === 422) return Promise.all(mails.map(sendOne));
  // An answer with the wrong number of ids is retried: the same key then replays Resend's first answer.
  const result: ProviderResult = ids ? { outcome: "retry", diagnostic: `Resend answered ${ids.length} ids for ${mails.length} emails.` } : resultOfError(error);
  return mails.map(() => result);
}

/** `batch-` and the SHA-256 of the sorted message ids: the same set of messages, the same key. */
export function batchIdempotencyKey(messageIds: string[]): string {
  return `batch-${createHash("sha256").update([...messageIds].sort().join(",")).digest("hex")}`;
}

function batchPayload(mail: OutboundMail): CreateBatchEmailOptions {
  const payload = resendPayload(mail);
  delete payload.attachments;
  return payload as CreateBatchEmailOptions;
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
