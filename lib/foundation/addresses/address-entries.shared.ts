import addressParser from "email-addresses";
import { MAX_ENTRY_LENGTH } from "./recipients.shared";

/** One mailbox of an entry as RFC 5322 reads it: the display name, the unquoted local part, the domain, and any comments. */
export interface EntryMailbox {
  kind: "mailbox";
  name: string | null;
  /** Unquoted and unescaped (`"a b"@x` gives `a b`): quote it again where it is written. */
  local: string;
  /** As written: a name, an IDN U-label, or a literal such as `[127.0.0.1]`. */
  domain: string;
  /** The text of each comment, in order, unescaped and trimmed: `a@x (Ada)` gives `["Ada"]`. */
  comments: string[];
}

export interface EntryGroup {
  kind: "group";
  name: string;
  members: EntryMailbox[];
}

/** Every mailbox and group a stored entry names, read by the one address parser; one that does not parse or exceeds MAX_ENTRY_LENGTH names nothing. */
export function readAddressEntry(entry: string): Array<EntryMailbox | EntryGroup> {
  if (entry.length > MAX_ENTRY_LENGTH) return [];
  const parsed = addressParser.parseAddressList({ input: entry, rfc6532: true, rejectTLD: false });
  if (!parsed) return [];
  return parsed.map((item) =>
    item.type === "group"
      ? { kind: "group", name: item.name, members: item.addresses.map(mailboxOf) }
      : mailboxOf(item),
  );
}

function mailboxOf(parsed: addressParser.ParsedMailbox): EntryMailbox {
  return {
    kind: "mailbox",
    name: parsed.name,
    local: parsed.local,
    domain: parsed.domain,
    comments: parsed.parts.comments.flatMap(commentTexts),
  };
}

/** The comments inside a CFWS node: the outermost `( … )` of each, without its parentheses and escapes. */
function commentTexts(node: addressParser.ASTNode): string[] {
  if (node.name === "comment") {
    const text = node.tokens
      .slice(1, -1)
      .replace(/\\([\s\S])/g, "$1")
      .trim();
    return text ? [text] : [];
  }
  return (node.children ?? []).flatMap(commentTexts);
}
