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
 * The live message a valid tracking token names, when its workspace records engagement. The token is
 * signed by this service, so its message id alone names the workspace. Null when the message is gone,
 * is a sandbox message, or its workspace has tracking off now: then nothing is recorded (an admin who
 * turns tracking off stops the recording of IPs and user agents, even for mail already out).
 * `lock` serialises the clicks of one message, so two links clicked at once see each other.
 */
export async function findTrackedMessage(db: Executor, messageId: string, options: { lock?: boolean } = {}): Promise<TrackedMessageRow | null> {
  const query = db
    .select({ id: emailMessages.id, workspaceId: emailMessages.workspaceId, sentAt: emailMessages.sentAt })
    .from(emailMessages)
    .innerJoin(workspaces, eq(workspaces.id, emailMessages.workspaceId))
    .where(and(eq(emailMessages.id, messageId), eq(emailMessages.sandbox, false), eq(workspaces.trackingEnabled, true)));
  const [row] = options.lock ? await query.for("update", { of: emailMessages }) : await query;
  return row ?? null;
}
