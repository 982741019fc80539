import { readMailbox } from "./recipients.shared";

/** Entries remembered by bareAddress: a batch repeats its senders, and delivery asks several times. */
const REMEMBERED = 1000;
const remembered = new Map<string, string | null>();

/**
 * The bare address of a stored entry (`addr` or `Display Name <addr>`), or null when the entry holds
 * no mailbox. Read by the parser that accepted the entry (recipients.shared.ts), so the two agree.
 */
export function bareAddress(entry: string): string | null {
  const known = remembered.get(entry);
  if (known !== undefined) return known;
  const address = readMailbox(entry.trim(), { rejectTLD: false })?.address ?? null;
  if (remembered.size >= REMEMBERED) remembered.clear();
  remembered.set(entry, address);
  return address;
}

/** The sending domain: the lower-cased domain of the sender's address. */
export function sendingDomain(from: string): string {
  const address = bareAddress(from);
  if (!address || !address.includes("@")) throw new Error(`The sender "${from}" has no address with a domain.`);
  return address.slice(address.lastIndexOf("@") + 1).toLowerCase();
}

/**
 * The Message-ID header of a message: `<em_…@sending-domain>`. The message id makes it unique and
 * stable across retries, so a provider or mailbox that deduplicates on it sees one message.
 */
export function messageIdHeader(messageId: string, from: string): string {
  return `<${messageId}@${sendingDomain(from)}>`;
}
