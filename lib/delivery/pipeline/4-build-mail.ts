import "server-only";
import type { Executor } from "@/db/client";
import type { EventCode } from "@/lib/records/timeline/event-codes.shared";
import { loadMessageAttachments } from "@/lib/domain/attachments/load-message-attachments";
import type { FilteredRecipients, SuppressedRecipient } from "@/lib/domain/suppressions/filter-recipients";
import { trackedHtml } from "@/lib/domain/tracking/apply-tracking";
import { oneClickUnsubscribeUrl } from "@/lib/domain/unsubscribe/token";
import { bareAddress } from "@/lib/foundation/addresses/sender-address.shared";
import { buildMime, type MailFields, type MimeAttachment } from "../mime/build-mime";
import type { DkimSigningKey } from "../mime/dkim-keys";
import type { DeliveryProvider, OutboundMail } from "../provider";
import type { Hop } from "../routing/hops";
import type { Route } from "../routing/route";
import type { Deliverable, Run } from "./1-load-batch";
import type { SenderCheck } from "./3-check-senders";

export interface MailToSend {
  mail: OutboundMail;
  /** The provider of the connection it goes through now (`hop`). */
  provider: DeliveryProvider;
  route: Route;
  /** The connection of the route it goes through now; null when the route names none (it then fails, saying so). */
  hop: Hop | null;
  /** Connections of the route passed over because their circuit was open, by name. */
  skipped: string[];
  attempt: number;
  lastAttempt: boolean;
  suppressed: SuppressedRecipient[];
  /** When the message was accepted: observed as accept → sent latency once its SENT is recorded. */
  acceptedAt?: Date;
  /** The message's scheduledAt as its job named it: a reschedule since then stops this hand-off. */
  scheduledAt?: Date | null;
}

/** Why a message ends without a send (recorded by step 6): nobody left to send to, or a failure. */
export type NothingToSend = { suppressedAll: SuppressedRecipient[] } | { failure: EventCode; sentence: string };

export type MailOrNothing = { send: MailToSend } | NothingToSend;

/** Step 4: the mail, or why none: every recipient suppressed, the sender unverified, or attachments purged. */
export async function buildMail(
  db: Executor,
  run: Run,
  recipients: FilteredRecipients,
  sender: SenderCheck,
): Promise<MailOrNothing> {
  const { message } = run;
  if (recipients.remaining === 0 && recipients.suppressed.length > 0) return { suppressedAll: recipients.suppressed };
  if (!sender.ok) return { failure: "EMAIL_MESSAGE_INVALID_SENDER_ERROR", sentence: sender.reason };
  const built = await buildOutboundMail(
    db,
    run,
    recipients,
    // Built once for the whole route: a fallback through SMTP or SES needs the MIME a Resend primary does not.
    needsMime(run) ? { dkim: sender.signingKey() } : null,
  );
  if (!built.ok) return { failure: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", sentence: built.reason };
  const { attempt, lastAttempt = false } = run.context;
  const send: MailToSend = {
    mail: built.mail,
    provider: run.provider,
    route: run.route,
    hop: run.route.hops[0] ?? null,
    skipped: [],
    attempt,
    lastAttempt,
    suppressed: recipients.suppressed,
    // A scheduled message's latency counts from its time, not from its acceptance days before.
    acceptedAt: message.scheduledAt ?? message.createdAt,
    scheduledAt: message.scheduledAt,
  };
  return { send };
}

function needsMime(run: Run): boolean {
  const providers = run.route.hops.length ? run.route.hops.map((hop) => hop.provider) : [run.provider];
  return providers.some((provider) => provider.needsMime !== false);
}

type OutboundMailOrReason = { ok: true; mail: OutboundMail } | { ok: false; reason: string };

// Tracking is applied here, at delivery: the stored bodyHtml stays as rendered.
async function buildOutboundMail(
  db: Executor,
  { message, trackingEnabled }: Deliverable,
  recipients: FilteredRecipients,
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
  return {
    ok: true,
    mail: { workspaceId: message.workspaceId, messageId: message.id, fields, mime, dkim: signing?.dkim },
  };
}

function mailFields(
  message: Deliverable["message"],
  attachments: MimeAttachment[],
  recipients: FilteredRecipients,
): MailFields {
  const header = (name: string) => Object.entries(message.headers).find(([key]) => key.toLowerCase() === name)?.[1];
  const references = header("references");
  // The same address as the body's link (lib/sending/prepare-message.ts): the first recipient as sent.
  const linkAddress =
    message.toAddresses[0] ?? bareAddress([...message.to, ...message.cc, ...message.bcc][0] ?? "") ?? "";
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
    inReplyTo: header("in-reply-to") ?? null,
    // Set only by an inbound forward (sendMessage's internal headers), never by a request body.
    loopHops: Number.parseInt(header("x-postwerk-loop") ?? "0", 10) || 0,
    attachments,
    listUnsubscribe:
      message.groupId && linkAddress ? oneClickUnsubscribeUrl(message.id, linkAddress.toLowerCase()) : null,
  };
}
