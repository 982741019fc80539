import { encodeWord, normalizeDomain, quoteString } from "@/internals/nodemailer";
import { wordEncoding } from "./mime-words";
import { readAddressEntry, type EntryMailbox } from "@/lib/foundation/addresses/address-entries.shared";
import { parseSimpleMailbox } from "@/lib/foundation/addresses/recipients.shared";

/** One mailbox (`address`) or group (`group`) of an entry, in the shape MailComposer read entries into. */
export interface Address {
  name: string;
  address?: string;
  group?: Address[];
}

/** An address header's value and the bare addresses it names, in order (group members included). */
export interface AddressList {
  /** Unfolded header value: `Name <addr>, addr, "Doe, Jane" <addr>`; empty when no entry has an address. */
  header: string;
  addresses: string[];
}

// MimeNode's rules (nodemailer/lib/mime-node), so headers and envelopes read as MailComposer built them.
const ATEXT = "[A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~\\x80-\\uFFFF]";
const DOT_ATOM = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*$`);
const QUOTED_STRING = /^"(?:[^"\\]|\\[\s\S])*"$/;
// Without a display name, an address holding a special goes into angle brackets, so the header cannot
// be read as more recipients than the envelope has.
const PLAIN_ADDRESS = /^[^\s"(),:;<>@[\\\]]+@[^\s"(),:;<>@[\\\]]+$/;
const DOMAIN_LITERAL_TAIL = /@(\[[^[\]\\]*\])$/;
const NON_ASCII = /[\x80-\uFFFF]/;

/** Parses stored entries (`addr`, `Name <addr>`, groups) into a header value and their addresses. */
export function addressList(entries: readonly string[]): AddressList {
  const values: string[] = [];
  const addresses: string[] = [];
  for (const entry of entries) {
    for (const parsed of parseEntry(entry)) values.push(formatAddress(parsed, addresses));
  }
  return { header: values.filter(Boolean).join(", "), addresses };
}

/**
 * One stored entry shaped as nodemailer's addressparser shaped it, so headers and envelopes stay what MailComposer
 * built (build-mime-parity.test.ts). An entry that does not parse names nobody.
 */
export function parseEntry(entry: string): readonly Address[] {
  const simple = parseSimpleMailbox(entry);
  if (simple) return [{ address: simple.address, name: simple.name ?? "" }];
  const known = remembered.get(entry);
  if (known) return known;
  const parsed = readAddressEntry(entry).map((item) =>
    item.kind === "group" ? { name: item.name, group: item.members.map(mailboxAddress) } : mailboxAddress(item),
  );
  if (remembered.size >= REMEMBERED) remembered.clear();
  remembered.set(entry, parsed);
  return parsed;
}

// The full parser is slow next to the shortcut, and a batch repeats its sender.
const REMEMBERED = 1000;
const remembered = new Map<string, readonly Address[]>();

function mailboxAddress(mailbox: EntryMailbox): Address {
  return {
    address: `${normalizeLocalPart(mailbox.local)}@${mailbox.domain}`,
    name: mailbox.name || mailbox.comments.join(" "),
  };
}

function formatAddress(parsed: Address, addresses: string[]): string {
  if (parsed.address) {
    const address = normalizeAddress(parsed.address);
    if (!address) return "";
    addresses.push(address);
    if (parsed.name) return `${encodeAddressName(parsed.name)} <${address}>`;
    return PLAIN_ADDRESS.test(address) ? address : `<${address}>`;
  }
  if (parsed.group) {
    const members = parsed.group.map((member) => formatAddress(member, addresses)).filter(Boolean);
    return `${encodeAddressName(parsed.name)}:${members.join(", ").trim()};`;
  }
  return "";
}

/**
 * Controls and stray angle brackets removed, the domain an A-label (U-label when SMTPUTF8 is needed anyway);
 * a domain literal splits at its own `@`, so `a@[x@evil.com]` does not reach evil.com.
 */
export function normalizeAddress(raw: string): string {
  const address = raw.replace(/[\x00-\x1F\x7F<>]+/g, " ").trim();
  if (!address) return address;
  const literal = address.endsWith("]") ? DOMAIN_LITERAL_TAIL.exec(address) : null;
  const at = literal ? address.length - literal[1].length - 1 : address.lastIndexOf("@");
  if (at < 0) return normalizeLocalPart(address);
  const user = address.slice(0, at);
  const domain = address.slice(at + 1);
  let encodedDomain = domain;
  try {
    encodedDomain = normalizeDomain(domain, NON_ASCII.test(user));
  } catch {
    // not a domain nodemailer can encode: kept as given; the angle brackets keep it unambiguous
  }
  return `${normalizeLocalPart(user)}@${encodedDomain}`;
}

function normalizeLocalPart(user: string): string {
  return DOT_ATOM.test(user) || QUOTED_STRING.test(user) ? user : quoteString(user);
}

/** A display name as it is, quoted when it holds specials, an RFC 2047 encoded-word when non-ASCII. */
function encodeAddressName(name: string): string {
  if (/^[\w ]*$/.test(name)) return name;
  if (/^[\x20-\x7e]*$/.test(name)) return quoteString(name);
  return encodeWord(name, wordEncoding(name), 52);
}
