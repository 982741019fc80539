import "server-only";
import { and, eq } from "drizzle-orm";
import { emailMessages } from "@/db/schema";
import { assertActorRole, type Actor } from "@/lib/foundation/access/actor";
import { AppError, invalidParameter, notFound } from "@/lib/foundation/errors";
import { isPlainObject } from "@/lib/foundation/validation.shared";
import { enqueueDeliveries, queueTransaction } from "@/lib/records/queue/queue";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { getMessageOrThrow, type EmailMessageRow } from "./get-message-or-throw";
import { parseScheduledAt } from "./scheduled-at";
import { assertWaiting } from "./waiting-state";

const m = emailMessages;

/**
 * PATCH /v1/email_messages/:id ({ scheduledAt }) and the dashboard's Reschedule
 * (docs/api.md#decided-scheduled-sends): moves a message still waiting to a new time, with a SCHEDULED
 * event naming both times. A PENDING message gets a new delivery job held until the new time; its
 * earlier job, whenever it runs, finds the time changed and does nothing (delivery matches the job's
 * time to the message's). A PAUSED one keeps waiting for the resume, which enqueues it for its time.
 * The row lock makes this and delivery's hand-off exclusive, as for a cancel.
 */
/** The PATCH body: `scheduledAt` and nothing else (any other field is a 400 naming it, never ignored). */
export function scheduledAtOfPatch(body: unknown): unknown {
  if (!isPlainObject(body)) throw new AppError("INVALID_JSON", 'The request body must be a JSON object: { "scheduledAt": "2026-05-01T09:00:00+02:00" }.');
  const other = Object.keys(body).find((key) => key !== "scheduledAt");
  if (other) throw invalidParameter(other, `Only scheduledAt can be changed on a message; ${other} cannot.`);
  return body.scheduledAt;
}

export async function rescheduleMessage(input: { workspaceId: string; messageId: string; scheduledAt: unknown; by: string; actor?: Actor }): Promise<EmailMessageRow> {
  if (input.actor) assertActorRole(input.actor, "ADMIN", "reschedule messages");
  // Checked before anything is locked: a bad time is a 400 whatever the message's state.
  const scheduledAt = parseScheduledAt(input.scheduledAt, "scheduledAt");
  await queueTransaction(async (tx) => {
    const [row] = await tx
      .select({ id: m.id, status: m.status, sandbox: m.sandbox, sentAt: m.sentAt, handedOverAt: m.handedOverAt, scheduledAt: m.scheduledAt })
      .from(m)
      .where(and(eq(m.workspaceId, input.workspaceId), eq(m.id, input.messageId)))
      .for("update");
    if (!row) throw notFound(`Email message ${input.messageId}`, "id");
    assertWaiting(row);
    await tx.update(m).set({ scheduledAt, updatedAt: new Date() }).where(eq(m.id, row.id));
    const when = scheduledAt.toISOString();
    const from = row.scheduledAt ? `from ${row.scheduledAt.toISOString()} ` : "";
    await recordEvent(tx, { workspaceId: input.workspaceId, messageId: row.id, code: "EMAIL_MESSAGE_SCHEDULED", message: `Rescheduled ${input.by} ${from}to ${when}.` });
    if (row.status === "PENDING") await enqueueDeliveries(tx, [{ workspaceId: input.workspaceId, messageId: row.id, scheduledAt: when }]);
  });
  return getMessageOrThrow(input.workspaceId, input.messageId);
}
