import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";
import { notFoundOrPurged } from "./not-found-or-purged";
import { isId } from "@/lib/foundation/ids";
import { log } from "@/lib/foundation/log";
import { eraseStoredContent } from "./erase-content";
import { recordEvent, redactRenderedEvents } from "@/lib/records/timeline/record-event";

/**
 * Status DELETED, content removed, the RENDERED event's sentence (it quotes the subject) rewritten; ids, addresses and
 * the timeline stay (docs/api.md#decided-paused-and-deleted). An erased PENDING message never goes out.
 */
export async function eraseMessage(input: { workspaceId: string; messageId: string }): Promise<void> {
  if (!isId("message", input.messageId)) throw notFound(`Email message ${input.messageId}`, "id");
  const db = await getDb();
  const m = emailMessages;
  await db.transaction(async (tx) => {
    // The row lock orders this against a delivery claim of the same message.
    const [message] = await tx
      .select({ id: m.id, status: m.status })
      .from(m)
      .where(and(eq(m.workspaceId, input.workspaceId), eq(m.id, input.messageId)))
      .for("update");
    if (!message) throw await notFoundOrPurged(tx, input.workspaceId, input.messageId, "Email message");
    if (message.status === "DELETED") return;
    await eraseStoredContent(tx, [message.id], { subject: true });
    await redactRenderedEvents(tx, input.workspaceId, [message.id]);
    await recordEvent(tx, {
      workspaceId: input.workspaceId,
      messageId: message.id,
      code: "EMAIL_MESSAGE_ERASED",
      message: ERASED_SENTENCE[message.status === "PENDING" || message.status === "PAUSED" ? "waiting" : "done"],
    });
  });
  log.info("message erased", { workspaceId: input.workspaceId, messageId: input.messageId });
}

const ERASED_SENTENCE = {
  waiting:
    "Erased by an admin before delivery: it will not be sent. Subject, bodies and variables are gone; addresses and metadata stay.",
  done: "Erased by an admin: subject, bodies, variables and the stored MIME are gone; addresses and metadata stay.",
};
