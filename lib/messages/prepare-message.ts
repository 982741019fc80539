import "server-only";
import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { memberships, unsubscribeGroups, users, type MessageSource, type StoredAttachment } from "@/db/schema";
import { assertSenderDomainVerified } from "@/lib/domains/assert-sender-allowed";
import { AppError, invalidParameter, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { getTemplateOrThrow } from "@/lib/templates/get-template-or-throw";
import { renderLine, renderTemplate, htmlToText } from "@/lib/templates/render.shared";
import type { SendCommand } from "./parse-send-request";
import { parseSingleAddress, type Recipient } from "./recipients.shared";

/** A validated, rendered message ready to insert: the output of every check that reads the database. */
export interface PreparedMessage {
  id: string;
  workspaceId: string;
  source: MessageSource;
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
  /** Recipients whose contacts are upserted (live mail only). */
  contacts: Recipient[];
  renderedFrom: string;
}

export interface PrepareContext {
  workspace: { id: string; testMode: boolean };
  sandbox: boolean;
  source: MessageSource;
  /** Field prefix inside a batch (`emailMessages[3]`). */
  prefix?: string;
  /** Member addresses, fetched once per request when the workspace is in test mode. */
  memberEmails?: Set<string>;
}

const INLINE_ATTACHMENTS_MAX_BYTES = 5 * 1024 * 1024;

/**
 * Template lookup, rendering, sender-domain, group and test-mode checks (DECISIONS.md, Sending).
 * Throws the first AppError; writes nothing.
 */
export async function prepareMessage(db: Executor, command: SendCommand, context: PrepareContext): Promise<PreparedMessage> {
  const p = (name: string) => (context.prefix ? `${context.prefix}.${name}` : name);
  const { workspace } = context;
  const content = await renderContent(db, workspace.id, command, p);
  const sender = command.from ?? senderFromTemplate(content.templateFrom, p);
  await assertSenderDomainVerified(db, workspace.id, sender.address).catch((error: AppError) => {
    throw new AppError(error.code, error.message, { param: p("from") });
  });
  const groupId = await resolveGroupId(db, workspace.id, command, p);
  if (workspace.testMode && !context.sandbox) {
    const members = context.memberEmails ?? (await listMemberEmails(db, workspace.id));
    assertTestModeRecipients(command, members, p);
  }
  return {
    id: newId("message"),
    workspaceId: workspace.id,
    source: context.source,
    sandbox: context.sandbox,
    templateId: command.templateId,
    groupId,
    variables: command.variables,
    to: command.to.map((r) => r.entry),
    toAddresses: [...new Set(command.to.map((r) => r.address.toLowerCase()))],
    cc: command.cc.map((r) => r.entry),
    bcc: command.bcc.map((r) => r.entry),
    from: sender.entry,
    replyTo: command.replyTo ?? content.templateReplyTo,
    subject: content.subject,
    bodyHtml: content.bodyHtml,
    bodyText: content.bodyText,
    headers: command.headers.references ? { references: command.headers.references } : {},
    attachments: decodeInlineAttachments(command, p),
    metaId: command.metaId,
    metadata: command.metadata,
    contacts: [...command.to, ...command.cc, ...command.bcc],
    renderedFrom: content.templateFrom ?? "",
  };
}

async function renderContent(db: Executor, workspaceId: string, command: SendCommand, p: (name: string) => string) {
  if (command.raw) {
    // Raw content is sent as given (no Liquid): only the text part is derived when absent.
    const { subject, bodyHtml, bodyText } = command.raw;
    return { subject: subject.replace(/\s+/g, " ").trim(), bodyHtml, bodyText: bodyText ?? htmlToText(bodyHtml), templateFrom: null, templateReplyTo: null };
  }
  const template = await getTemplateOrThrow(workspaceId, command.templateId!, db, p("templateId"));
  const options = { strict: template.strict };
  const rendered = renderTemplate(template, command.variables, options);
  return {
    ...rendered,
    templateFrom: template.fromAddress ? renderLine(template.fromAddress, command.variables, "from", options) : null,
    templateReplyTo: template.replyTo ? renderLine(template.replyTo, command.variables, "replyTo", options) || null : null,
  };
}

function senderFromTemplate(templateFrom: string | null, p: (name: string) => string): Recipient {
  if (!templateFrom) {
    throw new AppError("EMAIL_MESSAGE_INVALID_SENDER_ERROR", "The template has no default sender: give from in the request.", { param: p("from") });
  }
  return parseSingleAddress(templateFrom, p("from"), "EMAIL_MESSAGE_INVALID_SENDER_ERROR");
}

async function resolveGroupId(db: Executor, workspaceId: string, command: SendCommand, p: (name: string) => string) {
  if (!command.groupId && !command.groupKey) return null;
  const where = command.groupId ? eq(unsubscribeGroups.id, command.groupId) : eq(unsubscribeGroups.key, command.groupKey!);
  const [group] = await db
    .select({ id: unsubscribeGroups.id, key: unsubscribeGroups.key })
    .from(unsubscribeGroups)
    .where(and(eq(unsubscribeGroups.workspaceId, workspaceId), where));
  const param = p(command.groupId ? "groupId" : "groupKey");
  if (!group) throw notFound(`Unsubscribe group ${command.groupId ?? command.groupKey}`, param);
  if (command.groupId && command.groupKey && group.key !== command.groupKey) {
    throw invalidParameter(p("groupKey"), "groupId and groupKey name different unsubscribe groups.");
  }
  return group.id;
}

export async function listMemberEmails(db: Executor, workspaceId: string): Promise<Set<string>> {
  const rows = await db
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.workspaceId, workspaceId));
  return new Set(rows.map((row) => row.email.toLowerCase()));
}

function assertTestModeRecipients(command: SendCommand, members: Set<string>, p: (name: string) => string) {
  for (const field of ["to", "cc", "bcc"] as const) {
    const outsider = command[field].find((recipient) => !members.has(recipient.address.toLowerCase()));
    if (outsider) {
      throw new AppError(
        "EMAIL_MESSAGE_INVALID_TEST_MODE_RECIPIENT_ERROR",
        `The workspace is in test mode: live mail may only go to its members, and ${outsider.address} is not one. Use the sandbox endpoint, or turn test mode off in the settings.`,
        { param: p(field) },
      );
    }
  }
}

function decodeInlineAttachments(command: SendCommand, p: (name: string) => string): StoredAttachment[] {
  let total = 0;
  return command.attachments.map((attachment, index) => {
    const at = (name: string) => p(`attachments[${index}].${name}`);
    if (attachment.attachmentId !== undefined && attachment.contentBlob !== undefined) {
      throw invalidParameter(at("attachmentId"), "Give either contentBlob or attachmentId, not both.");
    }
    if (attachment.attachmentId !== undefined) {
      throw invalidParameter(at("attachmentId"), `Attachment ${attachment.attachmentId} does not exist or has not been uploaded.`);
    }
    if (attachment.contentBlob === undefined) throw invalidParameter(at("contentBlob"), "contentBlob (base64) or attachmentId is required.");
    const blob = attachment.contentBlob.replace(/\s+/g, "");
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(blob) || blob.length % 4 === 1) throw invalidParameter(at("contentBlob"), "contentBlob must be base64.");
    const size = Buffer.byteLength(blob, "base64");
    total += size;
    if (total > INLINE_ATTACHMENTS_MAX_BYTES) {
      throw new AppError("PAYLOAD_TOO_LARGE", "Inline attachments may total at most 5 MB per message (decoded); upload larger files with POST /v1/attachments.", { param: at("contentBlob") });
    }
    return { name: attachment.name, contentType: attachment.contentType, size, cid: attachment.cid, contentBase64: blob };
  });
}
