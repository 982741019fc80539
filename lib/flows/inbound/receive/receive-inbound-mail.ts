import "server-only";
import { createHash } from "node:crypto";
import { env } from "@/lib/foundation/env";
import type { InboundRecipient } from "@/lib/domain/inbound/find-recipient";
import { checkAuthentication } from "@/lib/flows/inbound/parse/check-authentication";
import { checkSpam } from "@/lib/flows/inbound/parse/check-spam";
import { parseInbound } from "@/lib/flows/inbound/parse/parse-inbound";
import { decidePolicy } from "./policy";
import { storeInboundAttachments } from "./store-attachments";
import { isStored, storeInboundMessage } from "./store-inbound-message";

export interface InboundEnvelope {
  mailFrom: string;
  ip: string;
  helo: string;
  recipients: InboundRecipient[];
}

export interface ReceiveOutcome {
  stored: string[];
  duplicates: number;
  quarantined: number;
}

/** The listener answers `code message` at end of DATA (every recipient refused the mail by its route's policy). */
export class InboundRefusal extends Error {
  constructor(
    public code: number,
    message: string,
  ) {
    super(message);
    this.name = "InboundRefusal";
  }
}

/**
 * Stores a received mail once per recipient and queues its route's actions (docs/inbound.md#storing-and-actions). Everything is
 * committed when this returns, so the listener's 250 means stored; anything thrown but InboundRefusal answers 451.
 */
export async function receiveInboundMail(raw: Buffer, envelope: InboundEnvelope): Promise<ReceiveOutcome> {
  const parsed = await parseInbound(raw);
  const auth = await checkAuthentication(raw, envelope);
  const spam = await checkSpam(raw, env().SPAMD_URL);
  const outcome: ReceiveOutcome = { stored: [], duplicates: 0, quarantined: 0 };
  let rejected = 0;
  let reason = "";
  for (const recipient of envelope.recipients) {
    const decision = decidePolicy(recipient.route, auth, spam);
    if (decision.kind === "reject") {
      rejected += 1;
      reason = decision.reason;
      continue;
    }
    const key = dedupeKey(envelope.mailFrom, parsed.messageId, raw, recipient.address);
    // Only attachments are written before the storing transaction: without any, its insert's conflict is the check,
    // and a mail costs one round trip fewer (docs/benchmarks.md, bench:inbound).
    if (parsed.attachments.length > 0 && (await isStored(recipient.workspaceId, key))) {
      outcome.duplicates += 1;
      continue;
    }
    const attachments = await storeInboundAttachments(recipient.workspaceId, parsed.attachments);
    const id = await storeInboundMessage({
      raw,
      envelope,
      recipient,
      parsed,
      auth,
      spam,
      attachments,
      dedupeKey: key,
      quarantineReason: decision.kind === "quarantine" ? decision.reason : null,
    });
    if (!id) outcome.duplicates += 1;
    else if (decision.kind === "quarantine") outcome.quarantined += 1;
    if (id) outcome.stored.push(id);
  }
  if (rejected > 0 && rejected === envelope.recipients.length) {
    throw new InboundRefusal(550, `5.7.1 Message refused: ${reason}`);
  }
  return outcome;
}

/** The same Message-ID from the same sender to the same recipient is one mail (docs/inbound.md#safety-and-limits). */
export function dedupeKey(mailFrom: string, messageId: string | null, raw: Buffer, recipient: string): string {
  const hash = createHash("sha256");
  if (messageId) hash.update(`${mailFrom.toLowerCase()}\n${messageId}\n${recipient.toLowerCase()}`);
  else hash.update(raw).update(`\n${recipient.toLowerCase()}`);
  return hash.digest("hex");
}
