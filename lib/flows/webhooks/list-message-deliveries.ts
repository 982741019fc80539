import "server-only";
import { and, desc, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { serializeDelivery } from "./serialize";

/** More than any message produces (a dozen events × a few endpoints); a page, not a stream. */
const MESSAGE_DELIVERIES_LIMIT = 200;

/** A message's deliveries to every endpoint: one index read per endpoint, cheap however many deliveries exist. */
export async function listMessageDeliveries(
  workspaceId: string,
  emailMessageId: string,
): Promise<{ hasEndpoints: boolean; deliveries: MessageDelivery[] }> {
  const db = await getDb();
  const endpoints = await db
    .select({ id: webhookEndpoints.id, url: webhookEndpoints.url, description: webhookEndpoints.description })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.workspaceId, workspaceId));
  if (endpoints.length === 0) return { hasEndpoints: false, deliveries: [] };
  const d = webhookDeliveries;
  const rows = await db
    .select()
    .from(d)
    .where(
      and(
        inArray(
          d.endpointId,
          endpoints.map((endpoint) => endpoint.id),
        ),
        eq(d.emailMessageId, emailMessageId),
      ),
    )
    .orderBy(desc(d.eventSeq), desc(d.createdAt))
    .limit(MESSAGE_DELIVERIES_LIMIT);
  const byId = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
  return {
    hasEndpoints: true,
    deliveries: rows.map((row) => ({ ...serializeDelivery(row), endpoint: byId.get(row.endpointId)! })),
  };
}

export type MessageDelivery = ReturnType<typeof serializeDelivery> & {
  endpoint: { id: string; url: string; description: string };
};
