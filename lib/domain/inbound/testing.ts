import { getDb } from "@/db/client";
import { inboundMessages } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import type { InboundMessageRow } from "./serialize-inbound-message";

/** Tests only: an inbound row as the pipeline stores one, without SMTP; `overrides` set any column. */
export async function insertTestInboundMessage(
  workspaceId: string,
  overrides: Partial<InboundMessageRow> = {},
): Promise<InboundMessageRow> {
  const id = overrides.id ?? newId("inboundMessage");
  const db = await getDb();
  const [row] = await db
    .insert(inboundMessages)
    .values({
      id,
      workspaceId,
      recipient: "support@inbound.example.com",
      envelopeFrom: "someone@mail.example.org",
      envelopeTo: ["support@inbound.example.com"],
      fromAddress: "someone@mail.example.org",
      fromName: "Someone",
      to: [{ address: "support@inbound.example.com", name: null }],
      subject: "A question",
      textBody: "Hello, a question.\n\nOn Mon, 1 Jan 2026, Support wrote:\n> Earlier text",
      strippedText: "Hello, a question.",
      dedupeKey: `test:${id}`,
      ...overrides,
    })
    .returning();
  return row;
}
