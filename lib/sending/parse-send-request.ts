import type { z } from "zod";
import { AppError, invalidParameter, type ErrorCode } from "@/lib/foundation/errors";
import { assertKnownKeys, dropNulls, isPlainObject, zodToAppError } from "@/lib/foundation/validation.shared";
import { assertSimulatorRecipients } from "@/lib/foundation/addresses/simulator.shared";
import {
  MAX_RECIPIENTS,
  parseAddressEntries,
  parseSingleAddress,
  splitAddressList,
  type Recipient,
} from "@/lib/foundation/addresses/recipients.shared";
import { sendEmailSchema, type AttachmentInput } from "@/lib/domain/messages/schemas";
import { parseScheduledAt } from "@/lib/domain/messages/scheduled-at";
import { normaliseTags } from "@/lib/domain/messages/tags.shared";
import { canonicalLocaleOrThrow } from "@/lib/domain/templates/locale-variants.shared";

/** A send request after every check that needs no database: what prepare-message.ts works from. */
export interface SendCommand {
  templateId: string | null;
  raw: { subject: string; bodyHtml: string; bodyText: string | null } | null;
  to: Recipient[];
  cc: Recipient[];
  bcc: Recipient[];
  from: Recipient | null;
  replyTo: string | null;
  /** Reply-To becomes the message's reply-tracking address (docs/inbound.md#reply-tracking). */
  replyTracking: boolean;
  variables: Record<string, unknown>;
  /** The send's locale, canonical (docs/templates.md#where-the-locale-comes-from); null: the contact's, else the default. */
  locale: string | null;
  attachments: AttachmentInput[];
  groupId: string | null;
  groupKey: string | null;
  metaId: string | null;
  metadata: Record<string, string | number | boolean>;
  headers: { references?: string };
  /** `name:value` tags, checked, each once (docs/api.md#tags). */
  tags: string[];
  /** When delivery may start (docs/api.md#decided-scheduled-sends); null: at once. */
  scheduledAt: Date | null;
}

const METADATA_MAX_KEYS = 50;
const METADATA_MAX_BYTES = 8 * 1024;
const RAW_FIELDS = ["bodyHtml", "bodyText", "subject"] as const;

/** A send as code inside the service states it (workflow steps, test sends, system mail): typed, not yet checked. */
export type SendDraft = z.input<typeof sendEmailSchema>;

/** Throws the first AppError (docs/api.md#decided-sending); `prefix` names fields inside a batch. */
export function parseSendRequest(body: unknown, prefix = ""): SendCommand {
  if (!isPlainObject(body))
    throw new AppError("INVALID_JSON", "The request body must be a JSON object.", { param: prefix || undefined });
  // Before the schema, so `bodyhtml` is named as the typo rather than answered with "bodyHtml is required".
  assertKnownKeys(body, sendEmailSchema, { prefix });
  return parseSendDraft(dropNulls(body) as SendDraft, prefix);
}

export interface ParseOptions {
  /** SMTP submission: Bcc-only mail is valid there, so `to` may be empty when cc or bcc names someone. */
  allowEmptyTo?: boolean;
}

/** The API's checks for a send the service itself states, with no JSON body rebuilt to get there. */
export function parseSendDraft(draft: SendDraft, prefix = "", options: ParseOptions = {}): SendCommand {
  const parsed = sendEmailSchema.safeParse(draft);
  if (!parsed.success) throw zodToAppError(parsed.error, "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", prefix);
  const input = parsed.data;
  const p = (name: string) => (prefix ? `${prefix}.${name}` : name);

  const rawGiven = RAW_FIELDS.filter((field) => input[field] !== undefined);
  if (input.templateId !== undefined && rawGiven.length > 0) {
    throw invalidParameter(
      p(rawGiven[0]),
      `Send either templateId or raw content (bodyHtml, subject, bodyText), not both; ${rawGiven[0]} was given with templateId.`,
    );
  }
  if (input.templateId === undefined && rawGiven.length === 0) {
    throw invalidParameter(p("templateId"), "Either templateId, or bodyHtml with subject and from, is required.");
  }
  if (input.templateId === undefined) {
    if (input.bodyHtml === undefined || input.bodyHtml.trim() === "")
      throw invalidParameter(p("bodyHtml"), "bodyHtml is required when sending without a template.");
    if (input.subject === undefined || input.subject.trim() === "")
      throw invalidParameter(p("subject"), "subject is required when sending without a template.");
  }

  if (input.replyTracking && !isBlank(input.replyTo))
    throw invalidParameter(
      p("replyTracking"),
      "replyTracking sets Reply-To to the message's reply-tracking address: give either replyTo or replyTracking, not both.",
    );
  const recipients = parseRecipients(input, p, options.allowEmptyTo ?? false);
  const from = parseSender(input.from, input.templateId === undefined, p);
  return {
    templateId: input.templateId ?? null,
    raw:
      input.templateId === undefined
        ? { subject: input.subject!, bodyHtml: input.bodyHtml!, bodyText: input.bodyText ?? null }
        : null,
    ...recipients,
    from,
    replyTo: isBlank(input.replyTo) ? null : normaliseReplyTo(input.replyTo!, p("replyTo")),
    replyTracking: input.replyTracking ?? false,
    variables: input.variables ?? {},
    locale: input.locale === undefined ? null : canonicalLocaleOrThrow(input.locale, p("locale")),
    attachments: input.attachments ?? [],
    groupId: input.groupId ?? null,
    groupKey: input.groupKey ?? null,
    // As stored (a lone surrogate becomes U+FFFD), since batch element keys are matched against the insert's return.
    metaId: input.metaId?.toWellFormed() ?? null,
    metadata: checkMetadata(input.metadata ?? {}, p("metadata")),
    headers: parseHeaders(input.headers, p("headers")),
    tags: normaliseTags(input.tags, p("tags")),
    scheduledAt: input.scheduledAt === undefined ? null : parseScheduledAt(input.scheduledAt, p("scheduledAt")),
  };
}

type AddressListInput = string | string[] | undefined;

interface PendingEntry {
  entry: string;
  param: string;
}

/** Splits without parsing: a string is a comma-separated list, and so is each array element (named `to[2]`). */
function splitList(value: AddressListInput, param: string, code?: ErrorCode): PendingEntry[] {
  if (value === undefined) return [];
  if (typeof value === "string") return splitAddressList(value, param, code).map((entry) => ({ entry, param }));
  return value.flatMap((element, index) => {
    const named = `${param}[${index}]`;
    return splitAddressList(element, named, code).map((entry) => ({ entry, param: named }));
  });
}

function parseEntries(entries: PendingEntry[], code?: ErrorCode): Recipient[] {
  return entries.map(({ entry, param }) => parseAddressEntries([entry], param, code)[0]);
}

/** Counted over to, cc and bcc before any entry is parsed: the count is cheap, the parsing is not. */
function parseRecipients(
  input: { to?: AddressListInput; cc?: AddressListInput; bcc?: AddressListInput },
  p: (name: string) => string,
  allowEmptyTo: boolean,
) {
  const [to, cc, bcc] = (["to", "cc", "bcc"] as const).map((field) => splitList(input[field], p(field)));
  if (to.length === 0 && !(allowEmptyTo && cc.length + bcc.length > 0)) {
    throw new AppError("EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR", "to must hold at least one recipient address.", {
      param: p("to"),
    });
  }
  const total = to.length + cc.length + bcc.length;
  if (total > MAX_RECIPIENTS) {
    // Splitting stops one past the limit, so a field at that length may hold more.
    const more = [to, cc, bcc].some((entries) => entries.length > MAX_RECIPIENTS) ? " or more" : "";
    throw new AppError(
      "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR",
      `A message may have at most ${MAX_RECIPIENTS} recipients over to, cc and bcc; this one has ${total}${more}.`,
      { param: p(to.length > MAX_RECIPIENTS ? "to" : cc.length >= bcc.length ? "cc" : "bcc") },
    );
  }
  const parsed = { to: parseEntries(to), cc: parseEntries(cc), bcc: parseEntries(bcc) };
  const pairs = [
    [to, parsed.to],
    [cc, parsed.cc],
    [bcc, parsed.bcc],
  ] as const;
  assertSimulatorRecipients(
    pairs.flatMap(([entries, recipients]) =>
      recipients.map(({ address }, index) => ({ address, param: entries[index].param })),
    ),
  );
  return parsed;
}

function parseSender(from: string | undefined, required: boolean, p: (name: string) => string): Recipient | null {
  if (from === undefined || from.trim() === "") {
    if (!required) return null;
    throw new AppError("EMAIL_MESSAGE_INVALID_SENDER_ERROR", "from is required when sending without a template.", {
      param: p("from"),
    });
  }
  return parseSingleAddress(from, p("from"), "EMAIL_MESSAGE_INVALID_SENDER_ERROR");
}

function isBlank(value: AddressListInput): boolean {
  return (
    value === undefined ||
    (typeof value === "string" ? value.trim() === "" : value.every((entry) => entry.trim() === ""))
  );
}

function normaliseReplyTo(value: string | string[], param: string): string {
  return parseEntries(
    splitList(value, param, "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR"),
    "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
  )
    .map((recipient) => recipient.entry)
    .join(", ");
}

function checkMetadata(metadata: Record<string, string | number | boolean>, param: string) {
  if (Object.keys(metadata).length > METADATA_MAX_KEYS)
    throw invalidParameter(param, `metadata may have at most ${METADATA_MAX_KEYS} keys.`);
  if (Buffer.byteLength(JSON.stringify(metadata)) > METADATA_MAX_BYTES)
    throw invalidParameter(param, "metadata may be at most 8 KB as JSON.");
  return metadata;
}

const MESSAGE_ID_TOKEN = /^<?[^<>\s@]+@[^<>\s@]+>?$/;

/** Only `references` is allowed; its value is one or more `<id@domain>` ids or addresses, no CR/LF. */
function parseHeaders(headers: Record<string, unknown> | undefined, param: string): { references?: string } {
  if (!headers) return {};
  for (const key of Object.keys(headers)) {
    if (key !== "references")
      throw invalidParameter(
        `${param}.${key}`,
        `The header ${key} is not allowed; the only custom header is references.`,
      );
  }
  const value = headers.references;
  if (value === undefined || value === null) return {};
  if (typeof value !== "string" || /[\r\n\0]/.test(value)) {
    throw invalidParameter(
      `${param}.references`,
      "references must be a string of message ids such as <id@example.com>, with no line breaks.",
    );
  }
  const tokens = value
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean);
  if (tokens.length === 0 || tokens.length > 50 || !tokens.every((token) => MESSAGE_ID_TOKEN.test(token))) {
    throw invalidParameter(
      `${param}.references`,
      "references must hold one or more message ids formatted as <id@example.com>.",
    );
  }
  return {
    references: tokens.map((token) => (token.startsWith("<") ? token : `<${token.replace(/>$/, "")}>`)).join(" "),
  };
}
