import "server-only";
import { isoTime } from "@/lib/foundation/iso-time";
import { getDb } from "@/db/client";
import { notFoundOrPurged } from "@/lib/domain/messages/not-found-or-purged";
import { getThreadForDashboard } from "./get-thread-for-dashboard";

/** GET /v1/threads/:id (docs/inbound.md#threads): the conversation, received and sent messages oldest first. */
export async function getThreadView(workspaceId: string, threadId: string) {
  const found = await getThreadForDashboard(workspaceId, threadId);
  if (!found) throw await notFoundOrPurged(await getDb(), workspaceId, threadId, "Thread");
  const { thread, entries } = found;
  return {
    id: thread.id,
    type: "Thread" as const,
    subject: thread.subjectKey,
    participants: thread.participants,
    createdAt: isoTime(thread.createdAt),
    lastMessageAt: isoTime(thread.lastMessageAt),
    messages: entries.map((entry) => ({
      direction: entry.direction,
      id: entry.id,
      at: isoTime(entry.at),
      from: entry.from,
      to: entry.to,
      subject: entry.subject,
      excerpt: entry.excerpt,
    })),
  };
}
