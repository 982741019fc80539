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

/** A code that moves no status or only COMBINABLE_MOVES; the sending-state codes and `settles` need recordEvent. */
export function isSetRecordable(input: RecordEventInput): boolean {
  const status = EFFECTS[input.code].status;
  return !input.settles && (status === undefined || (COMBINABLE_MOVES as readonly string[]).includes(status));
}

/**
 * recordEvent for many events in one statement, each message taking its new events' combined effects: the same
 * result as recordEvent for each in any order. Returns, per input, whether it was new.
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
  // The ids once more as a list of known length, so the planner updates by primary key, not a hash of the table.
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
    rows.flatMap((row, index) =>
      isNew[index]
        ? [
            {
              logId: row.event_id,
              messageId: row.message_id,
              workspaceId: row.workspace_id,
              code: row.code,
              bot: row.bot,
              at: new Date(row.at),
              inboundMessageId: inputs[index].inboundMessageId,
            },
          ]
        : [],
    ),
  );
  return isNew;
}
