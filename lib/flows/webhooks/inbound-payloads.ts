import "server-only";
import { inArray } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { inboundMessages } from "@/db/schema";
import { loadOriginalMessages } from "@/lib/domain/inbound/original-messages";
import { serializeInboundMessage, type SerializedInboundMessage } from "@/lib/domain/inbound/serialize-inbound-message";
import type { WebhookEventRow } from "./build-payloads";

export interface InboundPayload {
  workspaceId: string;
  inboundMessage: SerializedInboundMessage;
}

/**
 * `data.inboundMessage` of email.received and email.replied (docs/inbound.md#webhooks), as GET shows it when sent:
 * null once erased or purged away. Attachments carry no URL here: the API signs one on request.
 */
export async function inboundMessagesOf(db: Executor, events: WebhookEventRow[]): Promise<Map<string, InboundPayload>> {
  const ids = [...new Set(events.map((event) => event.inboundMessageId).filter((id): id is string => !!id))];
  const found = new Map<string, InboundPayload>();
  if (ids.length === 0) return found;
  const rows = await db.select().from(inboundMessages).where(inArray(inboundMessages.id, ids));
  const byWorkspace = new Map<string, typeof rows>();
  for (const row of rows) byWorkspace.set(row.workspaceId, [...(byWorkspace.get(row.workspaceId) ?? []), row]);
  for (const [workspaceId, group] of byWorkspace) {
    const originals = await loadOriginalMessages(
      db,
      workspaceId,
      group.map((row) => row.originalMessageId),
    );
    for (const row of group) {
      const originalMessage = row.originalMessageId ? (originals.get(row.originalMessageId) ?? null) : null;
      found.set(row.id, { workspaceId, inboundMessage: serializeInboundMessage(row, { originalMessage }) });
    }
  }
  return found;
}
