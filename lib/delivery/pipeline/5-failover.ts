import "server-only";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { metrics } from "@/lib/foundation/metrics/metrics";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { capitalizedDescription } from "../provider";
import { admit, recordHandoff } from "../routing/circuit-breaker";
import type { Hop } from "../routing/hops";
import type { MailToSend } from "./4-build-mail";
import { send, type Answer } from "./5-send";
import { claim } from "./claims";

// Step 5 across a route's connections (docs/delivery.md#routing-and-failover): which connection takes the message
// (circuit breakers), the mark that binds it there, and the move to the next one when, and only when, a connection
// certainly did not take it.

/** A mail whose route has another connection to go to: the only kind a breaker may hold back, or failover move. */
const canMove = (entry: MailToSend) => !entry.route.pinned && entry.route.hops.length > 1;

/**
 * Sets each mail's connection: the first of its route whose circuit admits it. Returns the mails no connection admits:
 * they wait for the queue's next try. A route's only connection is always tried (holding it back only delays mail).
 */
export async function chooseConnections(db: Db, entries: MailToSend[]): Promise<MailToSend[]> {
  const waiting: MailToSend[] = [];
  await Promise.all(
    entries.filter(canMove).map(async (entry) => {
      const next = await admittedFrom(db, entry, 0);
      if (next) moveTo(entry, next);
      else waiting.push(entry);
    }),
  );
  return waiting;
}

/** The answer a mail held back by every circuit of its route gets (a retry: the queue tries again later). */
export function heldBack(entry: MailToSend): Answer {
  const names = entry.route.hops.map((hop) => hop.name).join(", ");
  return {
    result: {
      outcome: "retry",
      diagnostic: `Every connection of its route is paused by its circuit breaker (${names}).`,
    },
    startedAt: new Date(),
  };
}

/**
 * Binds each mail with fallbacks to its chosen connection before the batch leaves (email_messages.connection_id), one
 * statement per connection: a retry after an unclear outcome, even after a crash, goes through that connection again,
 * never another. A crash thus also binds the batch's mails that had not left yet: they wait for that connection too
 * (docs/delivery.md#when-a-message-may-move-to-another-connection). Nothing to write for a mail without fallbacks.
 */
export async function bindConnections(db: Db, entries: MailToSend[]): Promise<void> {
  const byConnection = new Map<string, string[]>();
  for (const entry of entries.filter(canMove)) {
    const ids = byConnection.get(entry.hop!.connectionId) ?? [];
    ids.push(entry.mail.messageId);
    byConnection.set(entry.hop!.connectionId, ids);
  }
  for (const [connectionId, ids] of byConnection) {
    await db
      .update(emailMessages)
      .set({ connectionId })
      .where(and(inArray(emailMessages.id, ids), isNull(emailMessages.sentAt)));
  }
}

/**
 * After a connection's answer: counted by its breaker; then, while the answer says the connection certainly did not
 * take the message and the route has an admitted connection after it, the move (a FAILED_OVER event and the new binding,
 * in one transaction) and the hand-off there. Any other answer is final for this try.
 */
export async function followRoute(db: Db, entry: MailToSend, first: Answer): Promise<Answer> {
  let answer = first;
  for (;;) {
    if (entry.hop && !entry.provider.transactional)
      await recordHandoff(db, entry.mail.workspaceId, entry.hop, answer.result);
    const result = answer.result;
    // Held at the connection's own limit: it waits for the queue's next try rather than overflow elsewhere.
    if (result.outcome !== "retry" || !result.notAccepted || result.heldBack || !canMove(entry)) return answer;
    const index = entry.route.hops.indexOf(entry.hop!);
    const next = await admittedFrom(db, entry, index + 1);
    if (!next || !(await recordMove(db, entry, next, result.diagnostic))) return answer;
    moveTo(entry, next);
    answer = await send(db, entry);
  }
}

/** The first connection from `start` on whose circuit admits the mail; transactional ones only ever lead a route. */
async function admittedFrom(db: Db, entry: MailToSend, start: number): Promise<Hop | null> {
  for (const [index, hop] of entry.route.hops.entries()) {
    if (index < start || (index > 0 && hop.provider.transactional)) continue;
    if ((await admit(db, entry.mail.workspaceId, hop)) !== "open") return hop;
    if (!entry.skipped.includes(hop.name)) entry.skipped.push(hop.name);
  }
  return null;
}

function moveTo(entry: MailToSend, hop: Hop): void {
  entry.hop = hop;
  entry.provider = hop.provider;
}

/** False when the message is no longer this run's to send (another run recorded it meanwhile). */
async function recordMove(db: Db, entry: MailToSend, next: Hop, diagnostic: string): Promise<boolean> {
  const from = entry.hop!;
  const message = { id: entry.mail.messageId, workspaceId: entry.mail.workspaceId };
  const moved = await db.transaction(async (tx) => {
    if (!(await claim(tx, message))) return false;
    await tx
      .update(emailMessages)
      .set({ connectionId: next.connectionId })
      .where(and(eq(emailMessages.id, message.id), eq(emailMessages.workspaceId, message.workspaceId)));
    await recordEvent(tx, {
      ...{ workspaceId: message.workspaceId, messageId: message.id },
      code: "EMAIL_MESSAGE_FAILED_OVER",
      message: `${capitalizedDescription(from.provider)} (connection ${from.name}) did not take the message: ${diagnostic.replace(/\.?$/, ".")} It goes through the connection ${next.name} instead.`,
      details: { from: from.name, to: next.name, diagnostic },
    });
    return true;
  });
  if (moved) metrics().connectionFailovers.inc({ connection: from.connectionId });
  return moved;
}
