import "server-only";
import type { Executor } from "@/db/client";
import { localInbox } from "@/db/schema/index";
import { mimeOf, type DeliveryProvider, type OutboundMail } from "@/lib/delivery/provider";

/**
 * The built-in default provider: "delivers" by storing the exact MIME in the local_inbox table, so a
 * new install shows a full timeline (sent, then delivered) without any outside service. It only
 * writes through the claim's transaction, so the inbox row and the events commit together; the
 * primary key on email_message_id makes a re-run a no-op.
 */
export const localProvider: DeliveryProvider = {
  name: "local",
  description: "the local inbox provider",
  transactional: true,
  confirmsDelivery: false,
  async send(mail, { db }) {
    const at = new Date();
    await storeInLocalInbox(db, mail, at);
    return {
      outcome: "accepted",
      referenceId: mimeOf(mail).messageIdHeader,
      delivered: { at, message: `Delivered to the local inbox at ${at.toISOString()}.` },
    };
  },
};

/** The exact MIME and its envelope in local_inbox (also the outcome simulator's copy of what it "sent"). */
export async function storeInLocalInbox(db: Executor, mail: OutboundMail, at: Date): Promise<void> {
  const { envelope, raw } = mimeOf(mail);
  await db
    .insert(localInbox)
    .values({
      emailMessageId: mail.messageId,
      workspaceId: mail.workspaceId,
      envelopeFrom: envelope.from,
      envelopeTo: envelope.to,
      mime: raw,
      createdAt: at,
    })
    .onConflictDoNothing({ target: localInbox.emailMessageId });
}
