import "server-only";
import { inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { emailMessageLogs, emailMessages } from "@/db/schema";
import { newId } from "@/lib/ids";
import type { DeliveryOutcome } from "./record-delivery";

/** An accepted answer with nothing else to record: recordAcceptedSends' one statement covers it. */
export function isPlainAcceptance({ result, suppressed }: DeliveryOutcome): boolean {
  return result.outcome === "accepted" && !result.delivered && suppressed.length === 0;
}

/**
 * Plain acceptances (isPlainAcceptance) recorded in ONE statement, committed on its own: claim each
 * row (still PENDING and unsent, re-checked under its row lock), store the referenceId, set sentAt and
 * SUCCEEDED, and insert SENT: the row changes claimAndRecordResult + recordResult make, without their
 * transaction's five round trips per message. A data-modifying CTE is atomic, and the event is
 * inserted only for a claimed row. Returns the ids claimed; a message missing from it had been
 * recorded by another run (nothing changed for it).
 */
export async function recordAcceptedSends(db: Executor, outcomes: DeliveryOutcome[]): Promise<Set<string>> {
  if (outcomes.length === 0) return new Set();
  const rows = outcomes.map((outcome) => {
    if (!isPlainAcceptance(outcome) || outcome.result.outcome !== "accepted") throw new Error("recordAcceptedSends takes plain acceptances");
    const { message, provider, result, startedAt } = outcome;
    return {
      id: message.id,
      workspace_id: message.workspaceId,
      reference_id: result.referenceId,
      at: startedAt.toISOString(),
      event_id: newId("event", startedAt),
      message: `Sent through ${provider.description}.`,
      // One SENT per provider and message, even if two runs ever raced past the claim.
      provider_event_id: `${provider.name}:sent`,
      details: { provider: provider.name, referenceId: result.referenceId },
    };
  });
  const m = emailMessages;
  const logs = emailMessageLogs;
  const name = (column: { name: string }) => sql.identifier(column.name);
  // The rows as one JSON parameter (drizzle would expand them into a parameter per value); the ids once
  // more as a list, whose length the planner knows: it then reads the rows by primary key instead of
  // scanning the table when its statistics say few are PENDING (a seq scan per statement otherwise).
  const result = await db.execute<{ id: string }>(sql`
    with input as (
      select * from json_to_recordset(${JSON.stringify(rows)}::json) as i(
        id text, workspace_id text, reference_id text, at timestamptz, event_id text, message text, provider_event_id text, details jsonb)
    ), claimed as (
      update ${m} set ${name(m.referenceId)} = input.reference_id, ${name(m.sentAt)} = input.at,
        ${name(m.status)} = 'SUCCEEDED', ${name(m.updatedAt)} = ${new Date().toISOString()}::timestamptz
      from input
      where ${inArray(m.id, rows.map((row) => row.id))} and ${m.id} = input.id and ${m.workspaceId} = input.workspace_id and ${m.status} = 'PENDING' and ${m.sentAt} is null
      returning ${m.id}
    ), sent as (
      insert into ${logs} (${name(logs.id)}, ${name(logs.workspaceId)}, ${name(logs.emailMessageId)}, ${name(logs.code)},
        ${name(logs.message)}, ${name(logs.providerEventId)}, ${name(logs.bot)}, ${name(logs.details)}, ${name(logs.createdAt)}, ${name(logs.updatedAt)})
      select input.event_id, input.workspace_id, input.id, 'EMAIL_MESSAGE_SENT_PROVIDER_EVENT', input.message, input.provider_event_id,
        false, input.details, input.at, input.at
      from input join claimed on claimed.id = input.id
      on conflict do nothing
    )
    select id from claimed`);
  const claimed = (Array.isArray(result) ? result : (result as unknown as { rows: Array<{ id: string }> }).rows) as Array<{ id: string }>;
  return new Set(claimed.map((row) => row.id));
}

/** One recording statement of a process's recorder runs at a time; answers arriving meanwhile queue up. */
const MAX_IN_FLIGHT = 1;
/** Rows per statement: a burst of answers is split rather than written as one huge statement. */
const MAX_GROUP = 200;

interface Waiting {
  outcome: DeliveryOutcome;
  resolve(recorded: boolean): void;
  reject(error: unknown): void;
}

/**
 * Group commit for plain acceptances (docs/delivery.md "Crash safety"): a message's record is written
 * at once when no recording statement is running, else with the answers that arrived meanwhile, in the
 * next statement as soon as the running one finishes. There is no timer: a record never waits for
 * company, only for the statement already running, so its 250-to-commit window is at most two
 * statement durations (the one running, then its own), while the statements per message drop from
 * one to about 1/group size as the rate grows. A failed group statement is retried message by message, so
 * one message's error stays its own.
 */
export class AcceptedSendRecorder {
  private waiting: Waiting[] = [];
  private inFlight = 0;

  constructor(private readonly db: Executor) {}

  /** Resolves true once the message's record is committed, false if another run had recorded it. */
  record(outcome: DeliveryOutcome): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.waiting.push({ outcome, resolve, reject });
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.waiting.length > 0) {
      const group = this.waiting.splice(0, MAX_GROUP);
      this.inFlight++;
      void this.write(group).finally(() => {
        this.inFlight--;
        this.flush();
      });
    }
  }

  private async write(group: Waiting[]): Promise<void> {
    try {
      const claimed = await recordAcceptedSends(this.db, group.map((entry) => entry.outcome));
      for (const entry of group) entry.resolve(claimed.has(entry.outcome.message.id));
      return;
    } catch (error) {
      if (group.length === 1) return group[0].reject(error);
    }
    for (const entry of group) {
      try {
        entry.resolve((await recordAcceptedSends(this.db, [entry.outcome])).has(entry.outcome.message.id));
      } catch (error) {
        entry.reject(error);
      }
    }
  }
}

const recorders = new WeakMap<object, AcceptedSendRecorder>();

/** The process's recorder for a database (one per database object, so tests with their own get theirs). */
export function acceptedSendRecorder(db: Executor): AcceptedSendRecorder {
  let recorder = recorders.get(db);
  if (!recorder) recorders.set(db, (recorder = new AcceptedSendRecorder(db)));
  return recorder;
}
