import "server-only";
import type { SMTPServerSession } from "smtp-server";
import { getDb } from "@/db/client";
import { findInboundRecipient, type InboundRecipient } from "@/lib/domain/inbound/find-recipient";
import { verifyBounceLocalPart } from "@/lib/foundation/crypto/bounce-token";

/** The feedback-loop address (Yahoo CFL, Microsoft JMRP…): ARF reports about any of our messages. */
export const FEEDBACK_LOOP_LOCAL_PART = "fbl";

/** Who a RCPT TO is: a return path or fbl@ of BOUNCE_DOMAIN (a report), an inbound recipient, or a refusal. */
export type RecipientDecision =
  | { kind: "report"; messageId: string | "fbl" }
  | { kind: "inbound"; recipient: InboundRecipient }
  | { kind: "refused"; code: number; message: string };

/** What RCPT TO accepted, per SMTP session, for DATA. */
export interface AcceptedRecipients {
  reportMessageIds: Set<string>;
  feedbackLoop: boolean;
  inbound: InboundRecipient[];
}

const accepted = new WeakMap<SMTPServerSession, AcceptedRecipients>();

export function acceptedRecipients(session: SMTPServerSession): AcceptedRecipients {
  let entry = accepted.get(session);
  if (!entry) accepted.set(session, (entry = { reportMessageIds: new Set(), feedbackLoop: false, inbound: [] }));
  return entry;
}

/** A new transaction (MAIL FROM, RSET) starts with no recipients. */
export function forgetRecipients(session: SMTPServerSession): void {
  accepted.delete(session);
}

/**
 * BOUNCE_DOMAIN's return paths (`b-…`) and fbl@ are reports; everything else (reply tokens `r-…` there included) is
 * asked of the inbound routes, which refuse what no route or token takes: nothing is relayed.
 */
export async function decideRecipient(address: string, bounceDomain: string | null): Promise<RecipientDecision> {
  const at = address.lastIndexOf("@");
  const domain =
    at > 0
      ? address
          .slice(at + 1)
          .toLowerCase()
          .replace(/\.$/, "")
      : "";
  const local = address.slice(0, at);
  if (bounceDomain && domain === bounceDomain) {
    if (local.toLowerCase() === FEEDBACK_LOOP_LOCAL_PART) return { kind: "report", messageId: "fbl" };
    const messageId = verifyBounceLocalPart(local);
    if (messageId) return { kind: "report", messageId };
  }
  const lookup = await findInboundRecipient(await getDb(), address);
  if (lookup.ok) return { kind: "inbound", recipient: lookup.recipient };
  if (bounceDomain && domain === bounceDomain) {
    return {
      kind: "refused",
      code: 550,
      message: `5.1.1 <${address}>: No such return path: this address was not issued by this server.`,
    };
  }
  return { kind: "refused", code: lookup.code, message: lookup.message };
}
