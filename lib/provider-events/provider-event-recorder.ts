import "server-only";
import type { Db } from "@/db/client";
import type { MessageRef, ProviderEvent } from "./provider-event";
import { recordProviderEvents, type ProviderEventEntry, type RecordedReport } from "./record-provider-events";

/** One group's transaction runs at a time per process; reports arriving meanwhile queue up for the next. */
const MAX_IN_FLIGHT = 1;
/** Reports per group: a burst is split rather than written as one huge statement. */
const MAX_GROUP = 200;

interface Waiting extends ProviderEventEntry {
  resolve(result: RecordedReport): void;
  reject(error: unknown): void;
}

/**
 * Group commit for provider reports (docs/delivery.md#provider-events), the pattern of the delivery's
 * AcceptedSendRecorder: a report is written at once when no group is being written, else with the
 * reports that arrived meanwhile, in the next group as soon as the running one commits. There is no
 * timer: a report never waits for company, only for the group already running, so each answer still
 * follows its own commit, while the statements per report drop to a few per group as the rate grows.
 * A failed group (a bad report, or a deadlock with another process's group) is retried report by
 * report, so one bad report fails only its own request.
 */
export class ProviderEventRecorder {
  private waiting: Waiting[] = [];
  private inFlight = 0;

  constructor(private readonly db: Db) {}

  /** Resolves once the report is committed (or known to be a duplicate, or to name no message we know). */
  record(ref: MessageRef, event: ProviderEvent): Promise<RecordedReport> {
    return new Promise<RecordedReport>((resolve, reject) => {
      this.waiting.push({ ref, event, resolve, reject });
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
      const results = await recordProviderEvents(this.db, group);
      group.forEach((entry, index) => entry.resolve(results[index]));
      return;
    } catch (error) {
      if (group.length === 1) return group[0].reject(error);
    }
    for (const entry of group) {
      try {
        entry.resolve((await recordProviderEvents(this.db, [entry]))[0]);
      } catch (error) {
        entry.reject(error);
      }
    }
  }
}

const recorders = new WeakMap<object, ProviderEventRecorder>();

/** The process's recorder for a database (one per database object, so tests with their own get theirs). */
export function providerEventRecorder(db: Db): ProviderEventRecorder {
  let recorder = recorders.get(db);
  if (!recorder) recorders.set(db, (recorder = new ProviderEventRecorder(db)));
  return recorder;
}
