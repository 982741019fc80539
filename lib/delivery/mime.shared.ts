import addressparser from "nodemailer/lib/addressparser";

/**
 * The bare address of a stored sender entry (`addr` or `Display Name <addr>`), or null when the entry
 * holds no address. Parsed with nodemailer's own parser, so it agrees with the MIME headers built.
 */
export function bareAddress(entry: string): string | null {
  for (const parsed of addressparser(entry, { flatten: true })) {
    if (parsed.address) return parsed.address;
  }
  return null;
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
