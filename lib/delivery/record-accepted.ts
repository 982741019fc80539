import "server-only";
import type { Executor } from "@/db/client";
import { recordSentEvents } from "@/lib/timeline/record-event";
import type { DeliveryOutcome } from "./record-delivery";

/** An accepted answer with nothing else to record: recordAcceptedSends' one statement covers it. */
export function isPlainAcceptance({ result, suppressed }: DeliveryOutcome): boolean {
  return result.outcome === "accepted" && !result.delivered && suppressed.length === 0;
}

/**
 * Plain acceptances (isPlainAcceptance) recorded in ONE statement, committed on its own, by the
 * timeline's recordSentEvents. Returns the ids claimed; a message missing from it had been recorded by
 * another run (nothing changed for it).
 */
export async function recordAcceptedSends(db: Executor, outcomes: DeliveryOutcome[]): Promise<Set<string>> {
  return recordSentEvents(
    db,
    outcomes.map((outcome) => {
      if (!isPlainAcceptance(outcome) || outcome.result.outcome !== "accepted") throw new Error("recordAcceptedSends takes plain acceptances");
      const { message, provider, result, startedAt } = outcome;
      return {
        workspaceId: message.workspaceId,
        messageId: message.id,
        referenceId: result.referenceId,
        at: startedAt,
        message: `Sent through ${provider.description}.`,
        providerEventId: `${provider.name}:sent`,
        details: { provider: provider.name, referenceId: result.referenceId },
      };
    }),
  );
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
