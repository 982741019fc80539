import "server-only";
import { and, inArray } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { domains } from "@/db/schema";
import { senderDomainRejection } from "@/lib/domain/domains/assert-sender-allowed";
import { bareAddress } from "@/lib/foundation/addresses/sender-address.shared";
import { dkimSigningKeyFromRow, type DkimSigningKey } from "../mime/dkim-keys";
import type { Message } from "./1-load-batch";

/** `signingKey` decrypts the DKIM key on first call: only providers that sign MIME ask for it. */
export type SenderCheck = { ok: true; signingKey: () => DkimSigningKey | undefined } | { ok: false; reason: string };

/** Step 3: a domain unverified since acceptance fails the message (docs/api.md#decided-errors). */
export async function checkSenders(db: Executor, messages: Message[]): Promise<Map<string, SenderCheck>> {
  const wanted = new Map<string, { workspaceId: string; domain: string }>();
  const domainOf = new Map<string, string | null>();
  for (const message of messages) {
    const address = bareAddress(message.from);
    const domain = address ? address.slice(address.lastIndexOf("@") + 1).toLowerCase() : null;
    domainOf.set(message.id, domain);
    if (domain) wanted.set(`${message.workspaceId}\n${domain}`, { workspaceId: message.workspaceId, domain });
  }
  const rows =
    wanted.size === 0
      ? []
      : await db
          .select({
            workspaceId: domains.workspaceId,
            name: domains.name,
            status: domains.status,
            selector: domains.dkimSelector,
            sealed: domains.dkimPrivateKeyEncrypted,
          })
          .from(domains)
          .where(
            and(
              inArray(domains.workspaceId, [...new Set([...wanted.values()].map((pair) => pair.workspaceId))]),
              inArray(domains.name, [...new Set([...wanted.values()].map((pair) => pair.domain))]),
            ),
          );
  const byPair = new Map(rows.map((row) => [`${row.workspaceId}\n${row.name}`, row]));
  const checks = new Map<string, SenderCheck>();
  for (const message of messages) {
    const domain = domainOf.get(message.id);
    if (!domain) {
      checks.set(message.id, { ok: false, reason: `The sender "${message.from}" has no address.` });
      continue;
    }
    const row = byPair.get(`${message.workspaceId}\n${domain}`);
    const rejection = senderDomainRejection(domain, row?.status);
    checks.set(
      message.id,
      rejection || !row
        ? { ok: false, reason: rejection! }
        : { ok: true, signingKey: () => signingKeyOrNothing(domain, row) },
    );
  }
  return checks;
}

/** A key that does not decrypt fails only its own message: the SMTP provider looks it up again and throws. */
function signingKeyOrNothing(domain: string, row: { selector: string; sealed: string }): DkimSigningKey | undefined {
  try {
    return dkimSigningKeyFromRow(domain, row);
  } catch {
    return undefined;
  }
}
