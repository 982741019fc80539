import "server-only";
import { currentTraceParent, inSpan } from "@/lib/foundation/tracing";
import type { EventCode } from "@/lib/records/timeline/event-codes.shared";
import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { unsubscribeGroups, type MessageDoor, type MessageSource, type StoredAttachment } from "@/db/schema/index";
import { resolveSendAttachments } from "@/lib/domain/attachments/resolve-send-attachments";
import { assertKeyMaySendAs } from "@/lib/domain/api-keys/restrictions";
import { assertSenderAllowed, sendRouteOf } from "@/lib/domain/domains/assert-sender-allowed";
import { AppError, invalidParameter, notFound } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import { appendUnsubscribeLink } from "@/lib/domain/unsubscribe/append-link";
import { unsubscribeUrl } from "@/lib/domain/unsubscribe/token";
import { replyTrackingDomain } from "@/lib/domain/inbound/reply-tracking-domain";
import { replyLocalPart } from "@/lib/foundation/crypto/bounce-token";
import { assertLiveRecipientsInTestMode } from "./test-mode-recipients";
import { gateContent } from "./content-gate";
import { renderContent, rethrowAt, type Memo } from "./render-content";
import type { SendCommand } from "./parse-send-request";
import { parseSingleAddress, type Recipient } from "@/lib/foundation/addresses/recipients.shared";

/** A validated, rendered message ready to insert: the output of every check that reads the database. */
export interface PreparedMessage {
  id: string;
  workspaceId: string;
  source: MessageSource;
  /** The door it came in by (docs/dashboard.md#how-it-was-sent); unset: not recorded (workflow steps). */
  submittedVia?: MessageDoor;
  sandbox: boolean;
  templateId: string | null;
  groupId: string | null;
  variables: Record<string, unknown>;
  to: string[];
  toAddresses: string[];
  cc: string[];
  bcc: string[];
  from: string;
  replyTo: string | null;
  subject: string;
  bodyHtml: string;
  bodyText: string;
  headers: Record<string, string>;
  attachments: StoredAttachment[];
  metaId: string | null;
  metadata: Record<string, string | number | boolean>;
  tags: string[];
  scheduledAt: Date | null;
  /** Recipients whose contacts are upserted (live mail only); a locale given sets the contact's. */
  contacts: Array<Recipient & { locale?: string | null }>;
  /** CONTENT_CHECKS=warn: the findings in a sentence, for the RENDERED event; null when none or off. */
  contentFindings?: string | null;
  /** The locale rendered in and the one asked for (docs/templates.md#where-the-locale-comes-from); unset: null. */
  locale?: string | null;
  requestedLocale?: string | null;
  renderedFrom: string;
  /** Recorded as already failed (a workflow step whose template no longer renders): an error event, no job. */
  failure?: { code: EventCode; sentence: string };
  resentFromId?: string;
  /** The conversation a reply sent through the reply API joins (docs/inbound.md#the-reply-api). */
  threadId?: string;
  /** The accepting request's trace, when tracing is on (docs/observability.md#one-message-one-trace). */
  traceParent?: string | null;
}

export interface PrepareContext {
  /** defaultLocale: the locale a template send asks for when neither it nor its contact names one. */
  workspace: { id: string; testMode: boolean; defaultLocale: string | null };
  sandbox: boolean;
  source: MessageSource;
  submittedVia?: MessageDoor;
  /** Field prefix inside a batch (`emailMessages[3]`). */
  prefix?: string;
  /** The sending key's allowed senders (exact addresses or domains); absent or empty = any verified sender. */
  allowedSenders?: readonly string[];
  /** Member addresses, fetched once per request when the workspace is in test mode. */
  memberEmails?: Set<string>;
  /** Decoded inline attachments allowed per message; the API's 5 MB when unset (SMTP raises it). */
  inlineAttachmentMaxBytes?: number;
  /** Shares lookups between the elements of one batch (request-memo.ts). */
  memo?: Memo;
}

const noMemo: Memo = async (_key, load) => load();

/** Every check of docs/api.md#decided-sending; throws the first AppError, writes nothing but S3 upload marks. */
export async function prepareMessage(
  db: Executor,
  command: SendCommand,
  context: PrepareContext,
): Promise<PreparedMessage> {
  const p = (name: string) => (context.prefix ? `${context.prefix}.${name}` : name);
  const { workspace } = context;
  const memo = context.memo ?? noMemo;
  const id = newId("message");
  // One MIME for all recipients, so one unsubscribe link: the first recipient's.
  const unsubscribe = command.groupId || command.groupKey ? unsubscribeUrl(id, firstRecipient(command)) : null;
  const content = await checkedContent(db, workspace, command, p, memo, unsubscribe);
  const sender = await checkedSender(db, command, content.templateFrom, context, p, memo);
  const groupId = await resolveGroupId(db, workspace.id, command, p, memo);
  const replyTo = command.replyTracking
    ? await replyTrackingAddress(db, workspace.id, id, p, memo)
    : (command.replyTo ?? content.templateReplyTo);
  await assertLiveRecipientsInTestMode(db, command, context, p);
  // Last: with the S3 driver it may record an upload found at the store, so only once all else holds.
  const attachments = await resolveSendAttachments(
    db,
    workspace.id,
    command.attachments,
    p,
    context.inlineAttachmentMaxBytes,
  );
  return {
    id,
    workspaceId: workspace.id,
    source: context.source,
    submittedVia: context.submittedVia,
    sandbox: context.sandbox,
    templateId: command.templateId,
    groupId,
    variables: command.variables,
    to: command.to.map((r) => r.entry),
    toAddresses: [...new Set(command.to.map((r) => r.address.toLowerCase()))],
    cc: command.cc.map((r) => r.entry),
    bcc: command.bcc.map((r) => r.entry),
    from: sender.entry,
    replyTo,
    subject: content.subject,
    bodyHtml: content.bodyHtml,
    bodyText: content.bodyText,
    headers: command.headers.references ? { references: command.headers.references } : {},
    attachments,
    metaId: command.metaId,
    metadata: command.metadata,
    tags: command.tags,
    scheduledAt: command.scheduledAt,
    contacts: contactsOf(command),
    locale: content.locale,
    requestedLocale: content.requestedLocale,
    renderedFrom: content.templateFrom ?? "",
    contentFindings: content.findings,
    traceParent: currentTraceParent(),
  };
}

/** A locale the send names is learnt by its `to` contacts (docs/templates.md#where-the-locale-comes-from). */
function contactsOf(command: SendCommand) {
  return [...command.to.map((recipient) => ({ ...recipient, locale: command.locale })), ...command.cc, ...command.bcc];
}

/** The rendered content, raw content with its unsubscribe link appended, through CONTENT_CHECKS (content-gate.ts). */
async function checkedContent(
  db: Executor,
  workspace: PrepareContext["workspace"],
  command: SendCommand,
  p: (name: string) => string,
  memo: Memo,
  unsubscribe: string | null,
) {
  const render = () => renderContent(db, workspace, command, p, memo, unsubscribe);
  let content = await inSpan("render", { attributes: { "postwerk.templated": !command.raw } }, render);
  if (unsubscribe && command.raw) content = { ...content, ...appendUnsubscribeLink(content, unsubscribe) };
  const findings = gateContent(content, { unsubscribeUrl: unsubscribe, field: p, templated: !command.raw });
  return { ...content, findings };
}

/** `r-<token>@<domain>` (docs/inbound.md#reply-tracking); it wins over the template's replyTo. */
async function replyTrackingAddress(
  db: Executor,
  workspaceId: string,
  messageId: string,
  p: (name: string) => string,
  memo: Memo,
): Promise<string> {
  const domain = await memo("reply-tracking-domain", () => replyTrackingDomain(db, workspaceId));
  if (!domain)
    throw invalidParameter(
      p("replyTracking"),
      "replyTracking needs somewhere for replies to arrive: add and verify an inbound domain (POST /v1/inbound_domains), or set BOUNCE_DOMAIN.",
    );
  return `${replyLocalPart(messageId)}@${domain}`;
}

/** The sender: given, else the template's; one the key may use, of a domain the workspace may send from. */
async function checkedSender(
  db: Executor,
  command: SendCommand,
  templateFrom: string | null,
  context: PrepareContext,
  p: (name: string) => string,
  memo: Memo,
): Promise<Recipient> {
  const sender = command.from ?? senderFromTemplate(templateFrom, p);
  assertKeyMaySendAs(context.allowedSenders, sender.address, p("from"));
  const senderDomain = sender.address.slice(sender.address.lastIndexOf("@") + 1).toLowerCase();
  const recipients = [...command.to, ...command.cc, ...command.bcc].map((recipient) => recipient.address);
  const route = sendRouteOf(context.sandbox, recipients);
  // Keyed by route too: the test sender's verdict depends on where this message goes, not only on its domain.
  await memo(`sender-domain:${senderDomain}:${route}`, () =>
    assertSenderAllowed(db, context.workspace.id, sender.address, route),
  ).catch(rethrowAt(p("from")));
  return sender;
}

function firstRecipient(command: SendCommand): string {
  return ([...command.to, ...command.cc, ...command.bcc][0]?.address ?? "").toLowerCase();
}

function senderFromTemplate(templateFrom: string | null, p: (name: string) => string): Recipient {
  if (!templateFrom) {
    throw new AppError(
      "EMAIL_MESSAGE_INVALID_SENDER_ERROR",
      "The template has no default sender: give from in the request.",
      { param: p("from") },
    );
  }
  return parseSingleAddress(templateFrom, p("from"), "EMAIL_MESSAGE_INVALID_SENDER_ERROR");
}

async function resolveGroupId(
  db: Executor,
  workspaceId: string,
  command: SendCommand,
  p: (name: string) => string,
  memo: Memo,
) {
  if (!command.groupId && !command.groupKey) return null;
  const where = command.groupId
    ? eq(unsubscribeGroups.id, command.groupId)
    : eq(unsubscribeGroups.key, command.groupKey!);
  const [group] = await memo(`group:${command.groupId ?? ""}:${command.groupKey ?? ""}`, () =>
    db
      .select({ id: unsubscribeGroups.id, key: unsubscribeGroups.key })
      .from(unsubscribeGroups)
      .where(and(eq(unsubscribeGroups.workspaceId, workspaceId), where)),
  );
  const param = p(command.groupId ? "groupId" : "groupKey");
  if (!group) throw notFound(`Unsubscribe group ${command.groupId ?? command.groupKey}`, param);
  if (command.groupId && command.groupKey && group.key !== command.groupKey) {
    throw invalidParameter(p("groupKey"), "groupId and groupKey name different unsubscribe groups.");
  }
  return group.id;
}
