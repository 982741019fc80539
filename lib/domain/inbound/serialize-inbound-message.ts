import type { InboundAttachmentJson, inboundMessages } from "@/db/schema";
import { isoTime } from "@/lib/foundation/iso-time";

export type InboundMessageRow = typeof inboundMessages.$inferSelect;
/** What a list page reads: everything but the bodies and headers (GET /v1/inbound_messages/:id has them). */
export type InboundMessageListRow = Omit<InboundMessageRow, "textBody" | "htmlBody" | "headers">;

/** The sent message an inbound mail answers, beside it in the API, the webhooks and the dashboard. */
export interface OriginalMessageSummary {
  id: string;
  subject: string;
  templateId: string | null;
  metadata: Record<string, string | number | boolean>;
  workflowRunId: string | null;
  to: string[];
  contact: { id: string; email: string } | null;
}

export interface SerializeInboundExtras {
  /** The linked original message, when it still exists (null: not linked, or purged from the workspace). */
  originalMessage?: OriginalMessageSummary | null;
  /** A signed download URL per attachment; absent: `url` is null (webhook payloads link to the API instead). */
  attachmentUrl?: (attachment: InboundAttachmentJson) => string;
}

const iso = (value: Date | null) => (value ? isoTime(value) : null);

/** The public InboundMessage (docs/inbound.md#reading-inbound-mail): explicit nulls, ISO timestamps, never a raw row. */
export function serializeInboundMessage(
  row: InboundMessageListRow & Partial<Pick<InboundMessageRow, "textBody" | "htmlBody" | "headers">>,
  extras: SerializeInboundExtras = {},
) {
  const full = "headers" in row && row.headers !== undefined;
  return {
    id: row.id,
    type: "InboundMessage" as const,
    createdAt: isoTime(row.createdAt),
    status: row.status,
    quarantineReason: row.quarantineReason,
    routeId: row.routeId,
    inboundDomainId: row.inboundDomainId,
    threadId: row.threadId,
    recipient: row.recipient,
    mailboxHash: row.mailboxHash,
    envelope: { from: row.envelopeFrom, to: row.envelopeTo, remoteIp: row.remoteIp, helo: row.helo },
    from: row.fromAddress ? { address: row.fromAddress, name: row.fromName } : null,
    to: row.to,
    cc: row.cc,
    replyTo: row.replyTo,
    subject: row.subject,
    date: iso(row.sentAt),
    messageId: row.messageIdHeader,
    inReplyTo: row.inReplyTo,
    references: row.references,
    strippedText: row.strippedText,
    strippedSignature: row.strippedSignature,
    ...(full ? { text: row.textBody ?? null, html: row.htmlBody ?? null, headers: row.headers ?? [] } : {}),
    attachments: row.attachments.map((attachment) => ({
      id: attachment.id,
      filename: attachment.filename,
      contentType: attachment.contentType,
      size: attachment.size,
      contentId: attachment.contentId,
      inline: attachment.inline,
      url: extras.attachmentUrl ? extras.attachmentUrl(attachment) : null,
    })),
    sizeBytes: row.sizeBytes,
    verdicts: {
      spf: row.spf,
      dkim: row.dkim,
      dmarc: row.dmarc,
      arc: row.arc,
      spam: { status: row.spamStatus, score: row.spamScore },
      details: row.authDetails,
    },
    actionResults: row.actionResults,
    originalMessageId: row.originalMessageId,
    originalMessage: extras.originalMessage ?? null,
    contentPurgedAt: iso(row.contentPurgedAt),
  };
}

export type SerializedInboundMessage = ReturnType<typeof serializeInboundMessage>;
