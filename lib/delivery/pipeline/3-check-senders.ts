import "server-only";
import { and, inArray } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { domains } from "@/db/schema";
import { senderDomainRejection, testSenderRejection } from "@/lib/domain/domains/assert-sender-allowed";
import { isTestSenderAddress } from "@/lib/foundation/addresses/test-sender.shared";
import { bareAddress } from "@/lib/foundation/addresses/sender-address.shared";
import { dkimSigningKeyFromRow, type DkimSigningKey } from "../mime/dkim-keys";
import type { Run } from "./1-load-batch";

/** `signingKey` decrypts the DKIM key on first call: only providers that sign MIME ask for it. */
export type SenderCheck = { ok: true; signingKey: () => DkimSigningKey | undefined } | { ok: false; reason: string };

/**
 * Step 3: a domain unverified since acceptance fails the message (docs/api.md#decided-errors), and so does the test
 * sender on a provider that would take it off this machine (DELIVERY_PROVIDER changed since acceptance).
 */
export async function checkSenders(
  db: Executor,
  runs: ReadonlyArray<Pick<Run, "message" | "provider">>,
): Promise<Map<string, SenderCheck>> {
  const wanted = new Map<string, { workspaceId: string; domain: string }>();
  const domainOf = new Map<string, string | null>();
  for (const { message } of runs) {
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
  for (const { message, provider } of runs) {
    const domain = domainOf.get(message.id);
    if (!domain) {
      checks.set(message.id, { ok: false, reason: `The sender "${message.from}" has no address.` });
      continue;
    }
    if (isTestSenderAddress(`@${domain}`)) {
      // Unsigned: postwerk.test has no key, and the local inbox and the simulator check none.
      const reason = testSenderRejection(provider.name);
      checks.set(message.id, reason ? { ok: false, reason } : { ok: true, signingKey: () => undefined });
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
