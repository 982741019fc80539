import "server-only";
import { arrayOverlaps, lt, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { resendHandoffs } from "@/db/schema";

/**
 * A request committed before it is sent: retries come in other batches (another set, another key), so a message
 * named here is only sent again as this same request, which Resend answers with the first emails' ids.
 */
export interface ResendHandoff {
  idempotencyKey: string;
  /** In the order of the request's emails. */
  messageIds: string[];
  /** POST /emails/batch: the body as sent. Null for POST /emails (one message; its key is its id). */
  emails: Array<Record<string, unknown>> | null;
}

/** Commits the requests about to be sent (one statement); a key already there is kept as it was. */
export async function rememberHandoffs(db: Executor, handoffs: ResendHandoff[]): Promise<void> {
  if (handoffs.length === 0) return;
  await db.insert(resendHandoffs).values(handoffs).onConflictDoNothing();
}

export async function handoffsOf(db: Executor, messageIds: string[]): Promise<ResendHandoff[]> {
  if (messageIds.length === 0) return [];
  return db
    .select({
      idempotencyKey: resendHandoffs.idempotencyKey,
      messageIds: resendHandoffs.messageIds,
      emails: resendHandoffs.emails,
    })
    .from(resendHandoffs)
    .where(arrayOverlaps(resendHandoffs.messageIds, messageIds));
}

/** Resend keeps a key for 24 hours; a request older than that could not be replayed anyway. */
export async function purgeResendHandoffs(db: Executor): Promise<void> {
  await db.delete(resendHandoffs).where(lt(resendHandoffs.createdAt, sql`now() - interval '24 hours'`));
}
