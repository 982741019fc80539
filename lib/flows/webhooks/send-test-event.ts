import "server-only";
import { webhookEvents } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { queueTransaction } from "@/lib/records/queue/queue";
import { TEST_EVENT_TYPE } from "./build-payloads";
import { deliveryIdOf, insertDeliveries } from "./fan-out";
import { getEndpointOrThrow } from "./manage-endpoints";

/** A `webhook.test` event to this endpoint alone, through the queue like any other; not in the feed. */
export async function sendTestEvent(workspaceId: string, endpointId: string) {
  const endpoint = await getEndpointOrThrow(workspaceId, endpointId);
  const now = new Date();
  return queueTransaction(async (tx) => {
    const [event] = await tx
      .insert(webhookEvents)
      .values({ id: newId("webhookEvent", now), workspaceId, type: TEST_EVENT_TYPE, createdAt: now })
      .returning({ id: webhookEvents.id, seq: webhookEvents.seq });
    const deliveryId = deliveryIdOf(event.id);
    await insertDeliveries(tx, [
      {
        id: deliveryId,
        workspaceId,
        endpointId: endpoint.id,
        eventId: event.id,
        eventSeq: event.seq,
        eventType: TEST_EVENT_TYPE,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      },
    ]);
    return { eventId: event.id, deliveryId };
  });
}
