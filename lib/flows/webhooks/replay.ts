import "server-only";
import { inArray, sql } from "drizzle-orm";
import { AppError, notFound } from "@/lib/foundation/errors";
import { queueTransaction } from "@/lib/records/queue/queue";
import { zodToAppError } from "@/lib/foundation/validation.shared";
import { TEST_EVENT_TYPE } from "./build-payloads";
import { deliveryIdOf, insertDeliveries } from "./fan-out";
import { getEndpointOrThrow } from "./manage-endpoints";
import { rowsOf } from "./rows";
import { replaySchema } from "./schemas";

/** At most this many events per replay call; the answer says when more remain (call again with a later `since`). */
export const REPLAY_LIMIT = 10_000;

/** Sends the endpoint's events since a time again as new deliveries: "missed" (default) or "all". Same event ids, so receivers dedupe. */
export async function replayEndpoint(workspaceId: string, endpointId: string, body: unknown) {
  const parsed = replaySchema.safeParse(body ?? {});
  if (!parsed.success) throw zodToAppError(parsed.error);
  const endpoint = await getEndpointOrThrow(workspaceId, endpointId);
  if (!endpoint.enabled)
    throw new AppError("CONFLICT", "The endpoint is disabled: enable it before replaying.", { param: "id" });
  const { eventId } = parsed.data;
  const since = new Date(parsed.data.since ?? 0);
  // One named event is resent whatever became of it; a time range skips what already arrived unless mode is "all".
  const missedOnly = !eventId && (parsed.data.mode ?? "missed") === "missed";
  return queueTransaction(async (tx) => {
    const events = rowsOf<{ id: string; seq: string; type: string; email_message_id: string | null }>(
      await tx.execute(sql`
        select e.id, e.seq, e.type, e.email_message_id from webhook_events e
        where e.workspace_id = ${workspaceId} and e.created_at >= ${since.toISOString()}::timestamptz and e.type <> ${TEST_EVENT_TYPE}
          ${eventId ? sql`and e.id = ${eventId}` : sql``}
          ${endpoint.eventTypes ? sql`and ${inArray(sql`e.type`, endpoint.eventTypes)}` : sql``}
          ${missedOnly ? sql`and not exists (select 1 from webhook_deliveries d where d.endpoint_id = ${endpoint.id} and d.event_id = e.id and d.status = 'succeeded')` : sql``}
        order by e.seq limit ${REPLAY_LIMIT + 1}`),
    );
    if (eventId && events.length === 0)
      throw notFound(`Event ${eventId} (kept, of a type the endpoint receives)`, "eventId");
    const now = new Date();
    const chosen = events.slice(0, REPLAY_LIMIT);
    await insertDeliveries(
      tx,
      chosen.map((event) => ({
        id: deliveryIdOf(event.id),
        workspaceId,
        endpointId: endpoint.id,
        eventId: event.id,
        eventSeq: Number(event.seq),
        eventType: event.type,
        emailMessageId: event.email_message_id,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      })),
    );
    return { replayed: chosen.length, more: events.length > REPLAY_LIMIT };
  });
}
