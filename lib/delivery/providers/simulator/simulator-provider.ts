import "server-only";
import { hasSimulatorRecipient } from "@/lib/foundation/addresses/simulator.shared";
import { enqueueSimulatedOutcomes } from "@/lib/records/queue/queue";
import { mimeOf, type DeliveryProvider } from "@/lib/delivery/provider";
import { storeInLocalInbox } from "../local/local-provider";
import { ROUND_DELAYS_SECONDS, roundsFor } from "./simulated-events";

/**
 * The outcome simulator (docs/delivery.md#the-outcome-simulator), whatever DELIVERY_PROVIDER says, so no relay sees
 * the domain. Its report jobs commit with the SENT; it does not say "delivered" itself, the reports do.
 */
export const simulatorProvider: DeliveryProvider = {
  name: "simulator",
  description: "the outcome simulator",
  transactional: true,
  confirmsDelivery: false,
  async send(mail, { db }) {
    const at = new Date();
    const mime = mimeOf(mail);
    await storeInLocalInbox(db, mail, at);
    const recipients = mime.envelope.to;
    const data = { workspaceId: mail.workspaceId, messageId: mail.messageId, recipients };
    await enqueueSimulatedOutcomes(
      db,
      ROUND_DELAYS_SECONDS.slice(0, roundsFor(recipients)).map((seconds, round) => ({
        data: { ...data, round },
        startAfter: new Date(at.getTime() + seconds * 1000),
      })),
    );
    return { outcome: "accepted", referenceId: mime.messageIdHeader };
  },
};

/** The provider a message goes to: the simulator when it names a simulator address, else the configured one. */
export function providerFor(
  message: { to: string[]; cc: string[] | null; bcc: string[] | null },
  configured: DeliveryProvider,
): DeliveryProvider {
  return hasSimulatorRecipient(message.to, message.cc, message.bcc) ? simulatorProvider : configured;
}
