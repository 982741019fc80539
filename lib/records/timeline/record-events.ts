import "server-only";
import { inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { emailMessageLogs, emailMessages } from "@/db/schema/index";
import { newId } from "@/lib/foundation/ids";
import { wellFormedJson } from "@/db/well-formed-json";
import { emitWebhookEvents } from "./emit-webhook-events";
import { COMBINABLE_MOVES, EFFECTS } from "./effects";
import { combinedEffects } from "./effects-sql";
import type { RecordEventInput } from "./record-event";

/**
 * Whether recordEvents can record a code: its effect moves no status, or makes one of the moves whose
 * combination does not depend on the order (COMBINABLE_MOVES in effects.ts). The sending-state codes
 * (PAUSED, RESUMED, ERASED, CANCELLED) and `settles` go through recordEvent.
 */
export function isSetRecordable(input: RecordEventInput): boolean {
  const status = EFFECTS[input.code].status;
  return !input.settles && (status === undefined || (COMBINABLE_MOVES as readonly string[]).includes(status));
}

/**
 * recordEvent for many events at once (the group commit of provider events,
 * lib/delivery/provider-events/provider-event-recorder.ts), in ONE statement whatever the count: the
 * EmailMessageLogs are inserted (idempotent by providerEventId, as recordEvent), and each message
 * touched by a new event takes the combined effects of its new events: the earliest time for each
 * first-timestamp, the latest for each last-timestamp (bots move none), the status forward only
 * (effects-sql.ts combinedEffects, from the effects table). Same result as recordEvent called for each in any order, webhook outbox/feed rows included (one
 * more statement for the new events). Returns, per input, whether it was new.
 */
export async function recordEvents(db: Executor, inputs: RecordEventInput[]): Promise<boolean[]> {
  if (inputs.length === 0) return [];
  const rows = inputs.map((input) => {
    if (!isSetRecordable(input))
      throw new Error(`recordEvents cannot record ${input.code}${input.settles ? " (settles)" : ""}: use recordEvent`);
    const at = input.at ?? new Date();
    return {
      event_id: newId("event", at),
      workspace_id: input.workspaceId,
      message_id: input.messageId,
      code: input.code,
      message: input.message,
      provider_event_id: input.providerEventId ?? null,
      bot: input.bot ?? false,
      details: input.details ?? {},
      at: at.toISOString(),
    };
  });
  const codes = new Set(inputs.map((input) => input.code));
  const { aggregates, assignments } = combinedEffects(codes);
  const logs = emailMessageLogs;
  const m = emailMessages;
  const name = (column: { name: string }) => sql.identifier(column.name);
  // The message ids once more as a list, whose length the planner knows: it then updates the messages
  // by primary key, where a join with the CTE alone (100 rows by its guess) let it hash the whole
  // email_messages table while the table was small by its statistics (recordSentEvents does the same).
  const result = await db.execute<{ id: string }>(sql`
    with input as (
      select * from json_to_recordset(${wellFormedJson(rows)}::json) as i(
        event_id text, workspace_id text, message_id text, code text, message text, provider_event_id text, bot boolean, details jsonb, at timestamptz)
    ), inserted as (
      insert into ${logs} (${name(logs.id)}, ${name(logs.workspaceId)}, ${name(logs.emailMessageId)}, ${name(logs.code)},
        ${name(logs.message)}, ${name(logs.providerEventId)}, ${name(logs.bot)}, ${name(logs.details)}, ${name(logs.createdAt)}, ${name(logs.updatedAt)})
      select event_id, workspace_id, message_id, code, message, provider_event_id, bot, details, at, at from input
      on conflict do nothing
      returning ${name(logs.id)} as id, ${name(logs.emailMessageId)} as message_id, ${name(logs.code)} as code, ${name(logs.bot)} as bot, ${name(logs.createdAt)} as at
    ), effects as (
      -- In id order: two processes' groups touching the same messages lock them in the same order.
      select message_id${aggregates} from inserted group by message_id order by message_id
    ), updated as (
      update ${m} set ${name(m.updatedAt)} = ${new Date().toISOString()}::timestamptz${assignments}
      from effects where ${inArray(m.id, [...new Set(rows.map((row) => row.message_id))])} and ${m.id} = effects.message_id
    )
    select id from inserted`);
  const recorded = (
    Array.isArray(result) ? result : (result as unknown as { rows: Array<{ id: string }> }).rows
  ) as Array<{ id: string }>;
  const ids = new Set(recorded.map((row) => row.id));
  const isNew = rows.map((row) => ids.has(row.event_id));
  await emitWebhookEvents(
    db,
    rows
      .filter((_, index) => isNew[index])
      .map((row) => ({
        logId: row.event_id,
        messageId: row.message_id,
        workspaceId: row.workspace_id,
        code: row.code,
        bot: row.bot,
        at: new Date(row.at),
      })),
  );
  return isNew;
}
