import "server-only";
import type { Tx } from "@/db/client";
import { newId } from "@/lib/foundation/ids";
import { resolveThreadsIn } from "@/lib/flows/inbound/threads/resolve-thread";
import { enqueueInboundActions, queueTransaction } from "@/lib/records/queue/queue";
import { emitInboundReceivedEvents } from "@/lib/records/timeline/emit-webhook-events";
import { recordEvents } from "@/lib/records/timeline/record-events";
import type { InboundAttachmentJson } from "@/db/schema";
import type { InboundRecipient } from "@/lib/domain/inbound/find-recipient";
import type { AuthVerdict, ParsedInbound, SpamVerdict } from "@/lib/flows/inbound/parse/types";
import { insertInboundRows, type InboundRow } from "./inbound-rows-statement";

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
  /** The receiving span's trace, when tracing is on: the mail's actions job joins it. */
  traceParent?: string | null;
}

/** A copy whose (workspace, dedupe key) is already stored: its group writes nothing (the committer retries the rest). */
export class DuplicateMail extends Error {}

interface Stored {
  input: StoreInput;
  id: string;
  originalMessageId: string | null;
}

/**
 * One transaction for a group of recipients' copies (docs/inbound.md#storing-and-actions): every copy's thread (each
 * decided as if after the earlier copies', resolve-thread.ts), then set-based: the rows with their raw bytes in one
 * statement, the email.received rows, REPLIED on the originals with their email.replied rows, the actions jobs. The
 * writes are issued together and run in order on the transaction's connection: a group costs a few round trips, not a
 * few per mail. A taken dedupe key throws DuplicateMail, undoing the group's threads too; alone, that copy is the
 * duplicate (null to its caller).
 */
export async function writeInboundGroup(inputs: StoreInput[]): Promise<string[]> {
  const at = new Date();
  return queueTransaction(async (tx) => {
    const { threads, written } = await resolveThreadsIn(
      tx,
      inputs.map(({ recipient, parsed }) => ({
        workspaceId: recipient.workspaceId,
        parsed,
        replyToMessageId: recipient.replyToMessageId,
        at,
      })),
    );
    const stored: Stored[] = inputs.map((input, index) => ({
      input,
      id: newId("inboundMessage", at),
      originalMessageId: threads[index].originalMessageId,
    }));
    const rows = stored.map((entry, index) => rowOf(entry.input, entry.id, threads[index], at));
    const inserted = insertInboundRows(
      tx,
      rows,
      inputs.map((input) => input.raw),
    );
    const actions = runStoringActions(
      tx,
      stored.filter((entry) => entry.input.quarantineReason === null),
      at,
    );
    const [threadsDone, rowsDone, actionsDone] = await Promise.allSettled([written, inserted, actions]);
    // A skipped row (its dedupe key taken) fails the statements after it too: the duplicate is the answer.
    if (rowsDone.status === "fulfilled" && rowsDone.value.size < rows.length) throw new DuplicateMail();
    for (const done of [threadsDone, rowsDone, actionsDone]) if (done.status === "rejected") throw done.reason;
    return stored.map((entry) => entry.id);
  });
}

/** The route's actions of the accepted (not quarantined) copies: webhook rows, REPLIED, the actions job; issued together. */
async function runStoringActions(tx: Tx, stored: Stored[], at: Date): Promise<void> {
  const has = (entry: Stored, ...types: string[]) =>
    (entry.input.recipient.route?.actions ?? []).some((action) => types.includes(action.type));
  const received = stored
    .filter((entry) => has(entry, "webhook"))
    .map((entry) => ({
      id: entry.id,
      workspaceId: entry.input.recipient.workspaceId,
      originalMessageId: entry.originalMessageId,
    }));
  const replied = stored.flatMap(({ input, id, originalMessageId }) => {
    if (!originalMessageId) return [];
    const from = input.parsed.from?.address ?? null;
    return [
      {
        workspaceId: input.recipient.workspaceId,
        messageId: originalMessageId,
        code: "EMAIL_MESSAGE_REPLIED" as const,
        message: `Replied by ${from ?? input.envelope.mailFrom ?? "an unknown sender"} (${id})`,
        at,
        providerEventId: `inbound:${id}`,
        details: { inboundMessageId: id, from },
        inboundMessageId: id,
      },
    ];
  });
  const jobs = stored
    .filter((entry) => has(entry, "forward", "workflow", "dmarc"))
    .map((entry) => ({
      workspaceId: entry.input.recipient.workspaceId,
      inboundMessageId: entry.id,
      ...(entry.input.traceParent ? { traceParent: entry.input.traceParent } : {}),
    }));
  await Promise.all([
    emitInboundReceivedEvents(tx, received, at),
    recordEvents(tx, replied),
    enqueueInboundActions(tx, jobs),
  ]);
}

function rowOf(
  input: StoreInput,
  id: string,
  thread: { threadId: string; originalMessageId: string | null },
  at: Date,
): InboundRow {
  const { parsed, recipient, envelope, auth, spam } = input;
  return {
    id,
    workspaceId: recipient.workspaceId,
    inboundDomainId: recipient.inboundDomainId,
    routeId: recipient.route?.id ?? null,
    threadId: thread.threadId,
    originalMessageId: thread.originalMessageId,
    status: input.quarantineReason === null ? "RECEIVED" : "QUARANTINED",
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
