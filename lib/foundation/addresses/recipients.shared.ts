import addressParser from "email-addresses";
import { AppError, type ErrorCode } from "@/lib/foundation/errors";

// The code base's one address parser (email-addresses: RFC 5322 with RFC 6532's UTF-8, behind a regex shortcut), so
// validation, stored entries and the MIME builder cannot disagree. It is super-linear on adversarial input: no entry
// longer than MAX_ENTRY_LENGTH reaches it.

/** RFC 5321's limit on a path: an address longer than this cannot be delivered. */
export const MAX_ADDRESS_LENGTH = 254;
/** Our cap on the display name as written (quotes, escapes and ` <…>` count): generous, and keeps parsing cheap. */
export const MAX_DISPLAY_NAME_LENGTH = 256;
export const MAX_ENTRY_LENGTH = MAX_ADDRESS_LENGTH + MAX_DISPLAY_NAME_LENGTH;

/** One entry of an address list (docs/api.md#decided-sending), parsed alone so an error names the entry at fault. */
export interface Recipient {
  /** The entry as given, with whitespace normalised: what the API stores and returns. */
  entry: string;
  address: string;
  name: string | null;
}

export const MAX_RECIPIENTS = 50;

/** At most MAX_RECIPIENTS entries; more is refused before any is parsed, as parsing is what costs. */
export function parseAddressList(
  input: string,
  param: string,
  code: ErrorCode = "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR",
): Recipient[] {
  const entries = splitAddressList(input, param, code);
  if (entries.length > MAX_RECIPIENTS)
    throw new AppError(code, `${param} holds more than ${MAX_RECIPIENTS} addresses.`, { param });
  return parseAddressEntries(entries, param, code);
}

/** A list's entries unparsed, at most MAX_RECIPIENTS + 1, so a caller can tell "too many" before parsing any. */
export function splitAddressList(
  input: string,
  param: string,
  code: ErrorCode = "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR",
): string[] {
  if (/[\r\n\0]/.test(input)) throw new AppError(code, `${param} must not contain line breaks.`, { param });
  return splitEntries(input, MAX_RECIPIENTS + 1);
}

export function parseAddressEntries(
  entries: string[],
  param: string,
  code: ErrorCode = "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR",
): Recipient[] {
  return entries.map((entry) => parseRecipient(entry, param, code));
}

export function parseSingleAddress(input: string, param: string, code: ErrorCode): Recipient {
  const entries = parseAddressList(input, param, code);
  if (entries.length !== 1) throw new AppError(code, `${param} must hold exactly one address.`, { param });
  return entries[0];
}

function parseRecipient(entry: string, param: string, code: ErrorCode): Recipient {
  if (entry.length > MAX_ENTRY_LENGTH) {
    throw new AppError(
      code,
      `${param} holds "${entry.slice(0, 40)}…", which is longer than ${MAX_ENTRY_LENGTH} characters (${MAX_ADDRESS_LENGTH} for the address, ${MAX_DISPLAY_NAME_LENGTH} for the name).`,
      { param },
    );
  }
  const parsed = readMailbox(entry);
  if (!parsed) {
    throw new AppError(code, `${param} holds "${entry}", which is not an email address or "Name <address>".`, {
      param,
    });
  }
  const { address, domain } = parsed;
  if (address.length > MAX_ADDRESS_LENGTH || !/^[^\s@]+\.[^\s@.]{2,}$/.test(domain)) {
    throw new AppError(code, `${param} holds "${entry}", whose domain is not a valid mail domain.`, { param });
  }
  return { entry, address, name: parsed.name?.trim() || null };
}

export interface Mailbox {
  address: string;
  domain: string;
  name: string | null;
}

/** The one reading of a mailbox entry: the shortcut, else the parser; null when not one mailbox. `rejectTLD: false` reads stored entries back. */
export function readMailbox(entry: string, { rejectTLD = true } = {}): Mailbox | null {
  if (entry.length > MAX_ENTRY_LENGTH) return null;
  return parseSimpleMailbox(entry) ?? parseMailbox(entry, { rejectTLD });
}

/** One mailbox by RFC 5322 (with UTF-8, RFC 6532), or null. Exported for the test of the shortcut below. */
export function parseMailbox(entry: string, { rejectTLD = true } = {}): Mailbox | null {
  const parsed = addressParser.parseOneAddress({ input: entry, rfc6532: true, rejectTLD });
  if (!parsed || parsed.type !== "mailbox") return null;
  return { address: parsed.address, domain: parsed.domain, name: parsed.name };
}

const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const DOT_ATOM = `${ATEXT}(?:\\.${ATEXT})*`;
const ADDRESS = `(${DOT_ATOM})@([A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)+)`;
const SIMPLE_MAILBOX = new RegExp(`^(?:${ADDRESS}|(${ATEXT}(?: ${ATEXT})*) <${ADDRESS}>)$`);

/**
 * `local@domain.tld` or `Plain Name <local@domain.tld>` in ASCII atoms, read as the parser would (the test compares
 * them) at a fraction of its cost (docs/benchmarks.md#delivery-throughput-round-4-2026-11-22-issue-4s-target); else null.
 */
export function parseSimpleMailbox(entry: string): Mailbox | null {
  const match = SIMPLE_MAILBOX.exec(entry);
  if (!match) return null;
  const [, local, domain, name, namedLocal, namedDomain] = match;
  return local === undefined
    ? { address: `${namedLocal}@${namedDomain}`, domain: namedDomain, name }
    : { address: `${local}@${domain}`, domain, name: null };
}

/** Splits on commas outside quotes, angle brackets and comments; stops once it has `limit` entries. */
function splitEntries(input: string, limit: number): string[] {
  const entries: string[] = [];
  const keep = (raw: string) => {
    const entry = raw.replace(/\s+/g, " ").trim();
    if (entry.length > 0) entries.push(entry);
  };
  let start = 0;
  let quoted = false;
  let angle = 0;
  let comment = 0;
  for (let i = 0; i < input.length && entries.length < limit; i++) {
    const char = input[i];
    if (char === "\\" && quoted) {
      i++;
      continue;
    }
    if (char === '"' && angle === 0 && comment === 0) quoted = !quoted;
    else if (!quoted && char === "<") angle++;
    else if (!quoted && char === ">") angle = Math.max(0, angle - 1);
    else if (!quoted && char === "(") comment++;
    else if (!quoted && char === ")") comment = Math.max(0, comment - 1);
    else if (char === "," && !quoted && angle === 0 && comment === 0) {
      keep(input.slice(start, i));
      start = i + 1;
    }
  }
  if (entries.length < limit) keep(input.slice(start));
  return entries;
}
