import "server-only";
import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { emailMessages, workspaces } from "@/db/schema";

export interface TrackedMessageRow {
  id: string;
  workspaceId: string;
  sentAt: Date | null;
}

/**
 * Null when the message is gone, sandbox, or its workspace has tracking off now (turning it off stops recording even for
 * mail already out). `lock` serialises one message's clicks, so two at once see each other.
 */
export async function findTrackedMessage(
  db: Executor,
  messageId: string,
  options: { lock?: boolean } = {},
): Promise<TrackedMessageRow | null> {
  const query = db
    .select({ id: emailMessages.id, workspaceId: emailMessages.workspaceId, sentAt: emailMessages.sentAt })
    .from(emailMessages)
    .innerJoin(workspaces, eq(workspaces.id, emailMessages.workspaceId))
    .where(
      and(eq(emailMessages.id, messageId), eq(emailMessages.sandbox, false), eq(workspaces.trackingEnabled, true)),
    );
  const [row] = options.lock ? await query.for("update", { of: emailMessages }) : await query;
  return row ?? null;
}
