import "server-only";
import { createHash } from "node:crypto";
import { Resend, type CreateBatchEmailOptions, type CreateEmailOptions, type ErrorResponse } from "resend";
import type { Executor } from "@/db/client";
import type { DeliveryProvider, OutboundMail, ProviderResult } from "@/lib/delivery/provider";
import { handoffsOf, rememberHandoffs, type ResendHandoff } from "./resend-handoffs";

export interface ResendSettings {
  apiKey: string;
  /** RESEND_BASE_URL: another API origin (a regional endpoint, or a local fake in tests). */
  baseUrl?: string;
}

/**
 * Resend's HTTP API with the structured fields. The message id is the Idempotency-Key and every request is
 * committed as a handoff before it is sent, so a retried job never sends twice (resend-handoffs.ts).
 */
export function resendProvider(settings: ResendSettings): DeliveryProvider {
  // The registry asks once per job: keep one client while the settings stay the same.
  const key = `${settings.apiKey}\n${settings.baseUrl ?? ""}`;
  let provider = cached.get(key);
  if (!provider) {
    // The instance's and each workspace connection's; a rotated key leaves its old client behind, so keep a bound.
    if (cached.size >= 1000) cached.clear();
    cached.set(key, (provider = createResendProvider(settings)));
  }
  return provider;
}

const cached = new Map<string, DeliveryProvider>();

function createResendProvider(settings: ResendSettings): DeliveryProvider {
  const client = new Resend(settings.apiKey, { baseUrl: settings.baseUrl?.replace(/\/$/, "") });
  return {
    name: "resend",
    description: "Resend",
    transactional: false,
    confirmsDelivery: true,
    needsMime: false,
    send: async (mail, { db }) => (await sendResendBatches(db, client, [mail], sendOne))[0],
    sendMany: (mails, { db }) => sendResendBatches(db, client, mails, sendOne),
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
 * One result per mail, in order. A message already handed over goes again only as that same request; the others
 * go by batch, singly when alone or with attachments (the batch endpoint takes none).
 */
async function sendResendBatches(
  db: Executor,
  client: Resend,
  mails: OutboundMail[],
  sendOne: SendOne,
): Promise<ProviderResult[]> {
  const results: ProviderResult[] = new Array(mails.length);
  const indexOf = new Map(mails.map((mail, index) => [mail.messageId, index]));
  const requests: Array<{ handoff: ResendHandoff; indexes: number[] }> = [];
  const handedOver = new Set<number>();
  for (const handoff of await handoffsOf(db, [...indexOf.keys()])) {
    const indexes = handoff.messageIds
      .map((id) => indexOf.get(id))
      .filter((index): index is number => index !== undefined && !handedOver.has(index));
    indexes.forEach((index) => handedOver.add(index));
    if (indexes.length) requests.push({ handoff, indexes });
  }
  const fresh = mails.map((_, index) => index).filter((index) => !handedOver.has(index));
  const batchable = fresh.filter((index) => mails[index].fields.attachments.length === 0);
  const batched = batchable.length > 1 ? batchable : [];
  batched.sort((a, b) => (mails[a].messageId < mails[b].messageId ? -1 : 1));
  const newRequests = fresh.filter((index) => !batched.includes(index)).map((index) => [index]);
  for (let start = 0; start < batched.length; start += RESEND_BATCH_LIMIT)
    newRequests.push(batched.slice(start, start + RESEND_BATCH_LIMIT));
  const created = newRequests.map((indexes) => ({
    handoff: handoffFor(indexes.map((index) => mails[index])),
    indexes,
  }));
  // Committed before any of them is sent: a worker killed during a call leaves its request to replay.
  await rememberHandoffs(
    db,
    created.map((request) => request.handoff),
  );
  await Promise.all(
    [...requests, ...created].map(async ({ handoff, indexes }) => {
      const answers = await sendHandoff(
        client,
        handoff,
        indexes.map((index) => mails[index]),
        sendOne,
      );
      indexes.forEach((index, position) => (results[index] = answers[position]));
    }),
  );
  return results;
}

function handoffFor(mails: OutboundMail[]): ResendHandoff {
  const messageIds = mails.map((mail) => mail.messageId);
  if (mails.length === 1) return { idempotencyKey: messageIds[0], messageIds, emails: null };
  return {
    idempotencyKey: batchIdempotencyKey(messageIds),
    messageIds,
    emails: mails.map(batchPayload) as unknown as Array<Record<string, unknown>>,
  };
}

/** The request of a handoff (again, on a replay), answered for `mails`: those of its messages in hand. */
async function sendHandoff(
  client: Resend,
  handoff: ResendHandoff,
  mails: OutboundMail[],
  sendOne: SendOne,
): Promise<ProviderResult[]> {
  if (!handoff.emails) return Promise.all(mails.map(sendOne));
  const { data, error } = await client.batch.send(handoff.emails as unknown as CreateBatchEmailOptions[], {
    idempotencyKey: handoff.idempotencyKey,
  });
  const ids = data?.data;
  if (ids && ids.length === handoff.messageIds.length) {
    return mails.map((mail) => ({
      outcome: "accepted",
      referenceId: ids[handoff.messageIds.indexOf(mail.messageId)].id,
    }));
  }
  const status = typeof error?.statusCode === "number" ? error.statusCode : null;
  // Strict validation rejects the whole batch and creates nothing: sending singly is safe.
  if (status === 400 || status === 422) return Promise.all(mails.map(sendOne));
  // An answer with the wrong number of ids is retried: the same key then replays Resend's first answer.
  const result: ProviderResult = ids
    ? { outcome: "retry", diagnostic: `Resend answered ${ids.length} ids for ${handoff.messageIds.length} emails.` }
    : resultOfError(error);
  return mails.map(() => result);
}

/** `batch-` and the SHA-256 of the sorted message ids: the same set of messages, the same key. */
export function batchIdempotencyKey(messageIds: string[]): string {
  return `batch-${createHash("sha256")
    .update([...messageIds].sort().join(","))
    .digest("hex")}`;
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

/** No status (a network failure), 429, 5xx and a 409 for a key still in flight are retried; other 4xx are final. */
export function resultOfError(error: ErrorResponse | null): ProviderResult {
  if (!error) return { outcome: "retry", diagnostic: "Resend answered without an email id." };
  const status = typeof error.statusCode === "number" ? error.statusCode : null;
  const diagnostic = `${error.message || error.name}${status ? ` (HTTP ${status}, ${error.name})` : ""}`;
  const transient =
    status === null || status === 429 || status >= 500 || error.name === "concurrent_idempotent_requests";
  if (!transient) return { outcome: "failed", diagnostic };
  // An HTTP answer with an error and no email id: Resend did not take it (a network failure is unclear).
  return status === null ? { outcome: "retry", diagnostic } : { outcome: "retry", diagnostic, notAccepted: true };
}
