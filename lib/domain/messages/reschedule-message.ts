import "server-only";
import { and, eq } from "drizzle-orm";
import { emailMessages } from "@/db/schema";
import { assertActorRole, type Actor } from "@/lib/foundation/access/actor";
import { AppError } from "@/lib/foundation/errors";
import { notFoundOrPurged } from "./not-found-or-purged";
import { assertKnownKeys, isPlainObject } from "@/lib/foundation/validation.shared";
import { enqueueDeliveries, queueTransaction } from "@/lib/records/queue/queue";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { getMessageOrThrow, type EmailMessageRow } from "./get-message-or-throw";
import { parseScheduledAt } from "./scheduled-at";
import { rescheduleEmailSchema } from "./schemas";
import { assertWaiting } from "./waiting-state";

const m = emailMessages;

/** The PATCH body: `scheduledAt` and nothing else (any other field is a 400 naming it, never ignored). */
export function scheduledAtOfPatch(body: unknown): unknown {
  if (!isPlainObject(body))
    throw new AppError(
      "INVALID_JSON",
      'The request body must be a JSON object: { "scheduledAt": "2026-05-01T09:00:00+02:00" }.',
    );
  assertKnownKeys(body, rescheduleEmailSchema);
  return body.scheduledAt;
}

/** A PENDING message gets a new job held until the new time (the old job finds the time changed); a PAUSED one awaits the resume. */
export async function rescheduleMessage(input: {
  workspaceId: string;
  messageId: string;
  scheduledAt: unknown;
  by: string;
  actor?: Actor;
}): Promise<EmailMessageRow> {
  if (input.actor) assertActorRole(input.actor, "ADMIN", "reschedule messages");
  const scheduledAt = parseScheduledAt(input.scheduledAt, "scheduledAt");
  await queueTransaction(async (tx) => {
    const [row] = await tx
      .select({
        id: m.id,
        status: m.status,
        sandbox: m.sandbox,
        sentAt: m.sentAt,
        handedOverAt: m.handedOverAt,
        scheduledAt: m.scheduledAt,
      })
      .from(m)
      .where(and(eq(m.workspaceId, input.workspaceId), eq(m.id, input.messageId)))
      .for("update");
    if (!row) throw await notFoundOrPurged(tx, input.workspaceId, input.messageId, "Email message");
    assertWaiting(row);
    await tx.update(m).set({ scheduledAt, updatedAt: new Date() }).where(eq(m.id, row.id));
    const when = scheduledAt.toISOString();
    const from = row.scheduledAt ? `from ${row.scheduledAt.toISOString()} ` : "";
    await recordEvent(tx, {
      workspaceId: input.workspaceId,
      messageId: row.id,
      code: "EMAIL_MESSAGE_SCHEDULED",
      message: `Rescheduled ${input.by} ${from}to ${when}.`,
    });
    if (row.status === "PENDING")
      await enqueueDeliveries(tx, [{ workspaceId: input.workspaceId, messageId: row.id, scheduledAt: when }]);
  });
  return getMessageOrThrow(input.workspaceId, input.messageId);
}
