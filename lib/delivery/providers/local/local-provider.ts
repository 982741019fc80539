import "server-only";
import { localInbox } from "@/db/schema/index";
import { mimeOf, type DeliveryProvider } from "@/lib/delivery/provider";

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
    await db
      .insert(localInbox)
      .values({
        emailMessageId: mail.messageId,
        workspaceId: mail.workspaceId,
        envelopeFrom: mimeOf(mail).envelope.from,
        envelopeTo: mimeOf(mail).envelope.to,
        mime: mimeOf(mail).raw,
        createdAt: at,
      })
      .onConflictDoNothing({ target: localInbox.emailMessageId });
    return {
      outcome: "accepted",
      referenceId: mimeOf(mail).messageIdHeader,
      delivered: { at, message: `Delivered to the local inbox at ${at.toISOString()}.` },
    };
  },
};
