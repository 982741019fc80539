import { readMailbox } from "./recipients.shared";

/** Entries remembered by bareAddress: a batch repeats its senders, and delivery asks several times. */
const REMEMBERED = 1000;
const remembered = new Map<string, string | null>();

/** The bare address of a stored entry, or null when it holds no mailbox; read by the parser that accepted it. */
export function bareAddress(entry: string): string | null {
  const known = remembered.get(entry);
  if (known !== undefined) return known;
  const address = readMailbox(entry.trim(), { rejectTLD: false })?.address ?? null;
  if (remembered.size >= REMEMBERED) remembered.clear();
  remembered.set(entry, address);
  return address;
}

export function sendingDomain(from: string): string {
  const address = bareAddress(from);
  if (!address || !address.includes("@")) throw new Error(`The sender "${from}" has no address with a domain.`);
  return address.slice(address.lastIndexOf("@") + 1).toLowerCase();
}

/** `<em_…@sending-domain>`: stable across retries, so a provider or mailbox that deduplicates on it sees one message. */
export function messageIdHeader(messageId: string, from: string): string {
  return `<${messageId}@${sendingDomain(from)}>`;
}
