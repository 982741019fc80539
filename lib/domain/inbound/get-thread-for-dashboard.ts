import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages, inboundMessages, inboundThreads } from "@/db/schema";
import { isId } from "@/lib/foundation/ids";

// The dashboard's thread view (docs/dashboard.md#inbound-inbound): the inbound and outbound messages of a thread, merged in
// the order they happened.

export interface ThreadEntry {
  direction: "inbound" | "outbound";
  id: string;
  at: Date;
  from: string;
  to: string;
  subject: string;
  excerpt: string | null;
}

/** A thread of the workspace: its inbound and outbound messages in the order they happened (at most 200 each). */
export async function getThreadForDashboard(workspaceId: string, threadId: string) {
  if (!isId("inboundThread", threadId)) return null;
  const db = await getDb();
  const [thread] = await db
    .select()
    .from(inboundThreads)
    .where(and(eq(inboundThreads.workspaceId, workspaceId), eq(inboundThreads.id, threadId)));
  if (!thread) return null;
  const [inbound, outbound] = await Promise.all([
    db
      .select()
      .from(inboundMessages)
      .where(and(eq(inboundMessages.workspaceId, workspaceId), eq(inboundMessages.threadId, threadId)))
      .orderBy(desc(inboundMessages.createdAt))
      .limit(200),
    db
      .select({
        id: emailMessages.id,
        createdAt: emailMessages.createdAt,
        sentAt: emailMessages.sentAt,
        from: emailMessages.from,
        to: emailMessages.to,
        subject: emailMessages.subject,
        bodyText: emailMessages.bodyText,
      })
      .from(emailMessages)
      .where(and(eq(emailMessages.workspaceId, workspaceId), eq(emailMessages.threadId, threadId)))
      .orderBy(desc(emailMessages.createdAt))
      .limit(200),
  ]);
  const entries: ThreadEntry[] = [
    ...inbound.map((row) => ({
      direction: "inbound" as const,
      id: row.id,
      at: row.createdAt,
      from: row.fromAddress ?? row.envelopeFrom,
      to: row.recipient,
      subject: row.subject,
      excerpt: excerpt(row.strippedText ?? row.textBody),
    })),
    ...outbound.map((row) => ({
      direction: "outbound" as const,
      id: row.id,
      at: row.sentAt ?? row.createdAt,
      from: row.from,
      to: row.to.join(", "),
      subject: row.subject,
      excerpt: excerpt(row.bodyText),
    })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime() || a.id.localeCompare(b.id));
  return { thread, entries };
}

function excerpt(text: string | null): string | null {
  const trimmed = text?.trim();
  if (!trimmed) return null;
  return trimmed.length > 600 ? `${trimmed.slice(0, 600)}…` : trimmed;
}
