import addressParser from "email-addresses";
import { AppError, type ErrorCode } from "@/lib/errors";

/**
 * Address lists as the API takes them (DECISIONS.md): one string, comma-separated, each entry a bare
 * address or `Display Name <address>` (quoted names may contain commas). Parsed with an RFC 5322
 * parser, entry by entry, so an error names the entry at fault.
 */
export interface Recipient {
  /** The entry as given, with whitespace normalised: what the API stores and returns. */
  entry: string;
  address: string;
  name: string | null;
}

export const MAX_RECIPIENTS = 50;

export function parseAddressList(input: string, param: string, code: ErrorCode = "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR"): Recipient[] {
  if (/[\r\n\0]/.test(input)) throw new AppError(code, `${param} must not contain line breaks.`, { param });
  return splitEntries(input).map((entry) => parseEntry(entry, param, code));
}

/** Exactly one address (from). */
export function parseSingleAddress(input: string, param: string, code: ErrorCode): Recipient {
  const entries = parseAddressList(input, param, code);
  if (entries.length !== 1) throw new AppError(code, `${param} must hold exactly one address.`, { param });
  return entries[0];
}

function parseEntry(entry: string, param: string, code: ErrorCode): Recipient {
  const parsed = addressParser.parseOneAddress({ input: entry, rfc6532: true, rejectTLD: true });
  if (!parsed || parsed.type !== "mailbox") {
    throw new AppError(code, `${param} holds "${entry}", which is not an email address or "Name <address>".`, { param });
  }
  const address = parsed.address;
  const domain = parsed.domain;
  if (address.length > 254 || !/^[^\s@]+\.[^\s@.]{2,}$/.test(domain)) {
    throw new AppError(code, `${param} holds "${entry}", whose domain is not a valid mail domain.`, { param });
  }
  return { entry, address, name: parsed.name?.trim() || null };
}

/** Splits on commas outside quotes, angle brackets and comments. */
function splitEntries(input: string): string[] {
  const entries: string[] = [];
  let current = "";
  let quoted = false;
  let angle = 0;
  let comment = 0;
  for (let i = 0; i < input.length; i++) {
    const char = input[i];
    if (char === "\\" && quoted) {
      current += char + (input[++i] ?? "");
      continue;
    }
    if (char === '"' && angle === 0 && comment === 0) quoted = !quoted;
    else if (!quoted && char === "<") angle++;
    else if (!quoted && char === ">") angle = Math.max(0, angle - 1);
    else if (!quoted && char === "(") comment++;
    else if (!quoted && char === ")") comment = Math.max(0, comment - 1);
    if (char === "," && !quoted && angle === 0 && comment === 0) {
      entries.push(current);
      current = "";
    } else {
      current += char;
    }
  }
  entries.push(current);
  return entries.map((entry) => entry.replace(/\s+/g, " ").trim()).filter((entry) => entry.length > 0);
}
