import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import type { InboundAttachmentJson } from "@/db/schema";
import { inboundMessageRaw, inboundMessages } from "@/db/schema";
import type { InboundRecipient } from "@/lib/domain/inbound/find-recipient";
import { newId } from "@/lib/foundation/ids";
import type { AuthVerdict, ParsedInbound, SpamVerdict } from "@/lib/flows/inbound/parse/types";
import { resolveThreadIn } from "@/lib/flows/inbound/threads/resolve-thread";
import { enqueueInboundActions, queueTransaction } from "@/lib/records/queue/queue";
import { emitInboundReceivedEvent } from "@/lib/records/timeline/emit-webhook-events";
import { recordEvent } from "@/lib/records/timeline/record-event";
import type { Tx } from "@/db/client";

export interface StoreInput {
  raw: Buffer;
  envelope: { mailFrom: string; ip: string; helo: string; recipients: Array<{ address: string }> };
  recipient: InboundRecipient;
  parsed: ParsedInbound;
  auth: AuthVerdict;
  spam: SpamVerdict;
  attachments: InboundAttachmentJson[];
  dedupeKey: string;
  quarantineReason: string | null;
}

/**
 * One transaction per recipient's copy (docs/architecture.md#the-queue): the row, its raw bytes, its thread, the
 * email.received row (webhook action), the REPLIED event on the original and the actions job commit together or not at
 * all. Null for a duplicate (the dedupe index): nothing else is written for it.
 */
export async function storeInboundMessage(input: StoreInput): Promise<string | null> {
  const { recipient, parsed } = input;
  const workspaceId = recipient.workspaceId;
  const at = new Date();
  const id = newId("inboundMessage", at);
  return queueTransaction(async (tx) => {
    const thread = await resolveThreadIn(tx, {
      workspaceId,
      parsed,
      replyToMessageId: recipient.replyToMessageId,
      at,
    });
    const [row] = await tx
      .insert(inboundMessages)
      .values({ ...columns(input, at), id, threadId: thread.threadId, originalMessageId: thread.originalMessageId })
      .onConflictDoNothing({ target: [inboundMessages.workspaceId, inboundMessages.dedupeKey] })
      .returning({ id: inboundMessages.id });
    // The thread's touch rolls back with the duplicate: throwing undoes it, returning null keeps the caller simple.
    if (!row) throw new DuplicateMail();
    await tx.insert(inboundMessageRaw).values({ inboundMessageId: id, workspaceId, raw: input.raw });
    if (input.quarantineReason === null) await runStoringActions(tx, input, id, thread.originalMessageId, at);
    return id;
  }).catch((error: unknown) => {
    if (error instanceof DuplicateMail) return null;
    throw error;
  });
}

class DuplicateMail extends Error {}

/** A retry of a stored mail, found before its attachments are written again (the insert's conflict stays the guard). */
export async function isStored(workspaceId: string, dedupeKey: string): Promise<boolean> {
  const db = await getDb();
  const [found] = await db
    .select({ id: inboundMessages.id })
    .from(inboundMessages)
    .where(and(eq(inboundMessages.workspaceId, workspaceId), eq(inboundMessages.dedupeKey, dedupeKey)))
    .limit(1);
  return found !== undefined;
}

async function runStoringActions(
  tx: Tx,
  input: StoreInput,
  id: string,
  originalMessageId: string | null,
  at: Date,
): Promise<void> {
  const workspaceId = input.recipient.workspaceId;
  const actions = input.recipient.route?.actions ?? [];
  if (actions.some((action) => action.type === "webhook")) {
    await emitInboundReceivedEvent(tx, { id, workspaceId, originalMessageId }, at);
  }
  if (originalMessageId) {
    await recordEvent(tx, {
      workspaceId,
      messageId: originalMessageId,
      code: "EMAIL_MESSAGE_REPLIED",
      message: `Replied by ${input.parsed.from?.address ?? input.envelope.mailFrom ?? "an unknown sender"} (${id})`,
      at,
      providerEventId: `inbound:${id}`,
      details: { inboundMessageId: id, from: input.parsed.from?.address ?? null },
      inboundMessageId: id,
    });
  }
  if (actions.some((action) => action.type === "forward" || action.type === "workflow")) {
    await enqueueInboundActions(tx, { workspaceId, inboundMessageId: id });
  }
}

function columns(input: StoreInput, at: Date) {
  const { parsed, recipient, envelope, auth, spam } = input;
  return {
    workspaceId: recipient.workspaceId,
    inboundDomainId: recipient.inboundDomainId,
    routeId: recipient.route?.id ?? null,
    status: input.quarantineReason === null ? ("RECEIVED" as const) : ("QUARANTINED" as const),
    quarantineReason: input.quarantineReason,
    recipient: recipient.address,
    mailboxHash: recipient.mailboxHash,
    envelopeFrom: envelope.mailFrom,
    envelopeTo: envelope.recipients.map((r) => r.address),
    remoteIp: envelope.ip,
    helo: envelope.helo,
    fromAddress: parsed.from?.address ?? null,
    fromName: parsed.from?.name ?? null,
    to: parsed.to,
    cc: parsed.cc,
    replyTo: parsed.replyTo,
    subject: parsed.subject,
    sentAt: parsed.date,
    messageIdHeader: parsed.messageId,
    inReplyTo: parsed.inReplyTo,
    references: parsed.references,
    textBody: parsed.text,
    htmlBody: parsed.html,
    strippedText: parsed.strippedText,
    strippedSignature: parsed.strippedSignature,
    headers: parsed.headers,
    attachments: input.attachments,
    sizeBytes: parsed.sizeBytes,
    spf: auth.spf,
    dkim: auth.dkim,
    dmarc: auth.dmarc,
    arc: auth.arc,
    authDetails: { ...auth.details, dmarcPolicy: auth.dmarcPolicy, spamRules: spam.rules },
    spamStatus: spam.status,
    spamScore: spam.score,
    dedupeKey: input.dedupeKey,
    createdAt: at,
    updatedAt: at,
  };
}
