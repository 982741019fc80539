import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages, workspaces } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";
import { log } from "@/lib/foundation/log";
import { eraseStoredContent } from "@/lib/domain/messages/erase-content";
import { recordEventForMessages, redactRenderedEvents } from "@/lib/records/timeline/record-event";

const DISCARD_CHUNK = 1000;

/** Every PAUSED message becomes DELETED and erased (docs/api.md#decided-paused-and-deleted), chunk by chunk; the workspace stays paused. */
export async function discardPausedMessages(input: { workspaceId: string }): Promise<{ discarded: number }> {
  const db = await getDb();
  const [workspace] = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(eq(workspaces.id, input.workspaceId));
  if (!workspace) throw notFound(`Workspace ${input.workspaceId}`, "workspace");
  const m = emailMessages;
  let discarded = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: m.id })
        .from(m)
        .where(and(eq(m.workspaceId, input.workspaceId), eq(m.status, "PAUSED")))
        .orderBy(asc(m.createdAt), asc(m.id))
        .limit(DISCARD_CHUNK)
        .for("update", { skipLocked: true });
      const ids = rows.map((row) => row.id);
      await eraseStoredContent(tx, ids, { subject: true });
      await redactRenderedEvents(tx, input.workspaceId, ids);
      await recordEventForMessages(tx, {
        workspaceId: input.workspaceId,
        messageIds: ids,
        code: "EMAIL_MESSAGE_ERASED",
        message:
          "Discarded with the paused queue: it will not be sent. Subject, bodies and variables are gone; addresses and metadata stay.",
      });
      return ids.length;
    });
    discarded += count;
    if (count < DISCARD_CHUNK) break;
  }
  if (discarded > 0) log.info("paused messages discarded", { workspaceId: input.workspaceId, discarded });
  return { discarded };
}
