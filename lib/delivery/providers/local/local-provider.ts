import "server-only";
import type { Executor } from "@/db/client";
import { localInbox } from "@/db/schema/index";
import { mimeOf, type DeliveryProvider, type OutboundMail } from "@/lib/delivery/provider";

/** The default provider: stores the exact MIME in local_inbox, so a new install shows a full timeline. */
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
