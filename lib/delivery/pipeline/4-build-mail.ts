import "server-only";
import type { Executor } from "@/db/client";
import { loadMessageAttachments } from "@/lib/domain/attachments/load-message-attachments";
import type { FilteredRecipients } from "@/lib/domain/suppressions/filter-recipients";
import { trackedHtml } from "@/lib/domain/tracking/apply-tracking";
import { oneClickUnsubscribeUrl } from "@/lib/domain/unsubscribe/token";
import { buildMime, type MailFields, type MimeAttachment } from "../mime/build-mime";
import type { DkimSigningKey } from "../mime/dkim-keys";
import type { Deliverable } from "./1-load-batch";
import { bareAddress } from "@/lib/foundation/addresses/sender-address.shared";
import type { OutboundMail } from "../provider";

/** The mail, or why it cannot be built (attachments purged while the message waited). */
export type OutboundMailOrReason = { ok: true; mail: OutboundMail } | { ok: false; reason: string };

/**
 * The message as the provider gets it: recipients left after suppression, attachments read from
 * storage (only when it has any; bytes purged while the message waited make it `ok: false`), the HTML
 * with tracking applied (a delivery-time rewrite: the stored bodyHtml stays as rendered), and the MIME
 * when the provider needs it.
 */
export async function buildOutboundMail(
  db: Executor,
  { message, trackingEnabled }: Deliverable,
  recipients: FilteredRecipients,
  /** Null when the provider reads only the structured fields: no MIME is built then. */
  signing: { dkim: DkimSigningKey | undefined } | null,
): Promise<OutboundMailOrReason> {
  let attachments: MimeAttachment[] = [];
  if (message.attachments.length > 0) {
    const loaded = await loadMessageAttachments(db, message.workspaceId, message.attachments);
    if (!loaded.ok) return loaded;
    attachments = loaded.attachments;
  }
  const fields = mailFields(message, attachments, recipients);
  fields.html = trackedHtml(message, fields.html, trackingEnabled);
  const mime = signing ? await buildMime(message.id, fields) : null;
  return { ok: true, mail: { workspaceId: message.workspaceId, messageId: message.id, fields, mime, dkim: signing?.dkim } };
}

function mailFields(message: Deliverable["message"], attachments: MimeAttachment[], recipients: FilteredRecipients): MailFields {
  const references = Object.entries(message.headers).find(([key]) => key.toLowerCase() === "references")?.[1];
  // The same address as the body's link (lib/sending/prepare-message.ts): the first recipient as sent.
  const linkAddress = message.toAddresses[0] ?? bareAddress([...message.to, ...message.cc, ...message.bcc][0] ?? "") ?? "";
  return {
    from: message.from,
    to: recipients.to,
    cc: recipients.cc,
    bcc: recipients.bcc,
    replyTo: message.replyTo,
    subject: message.subject,
    html: message.bodyHtml,
    text: message.bodyText,
    references: references ?? null,
    attachments,
    listUnsubscribe: message.groupId && linkAddress ? oneClickUnsubscribeUrl(message.id, linkAddress.toLowerCase()) : null,
  };
}
