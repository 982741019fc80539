import "server-only";
import type { Executor } from "@/db/client";
import { recordSentEvents } from "@/lib/records/timeline/record-event";
import type { DeliveryOutcome } from "./6-record";
import { GroupCommitter, committerPerDatabase } from "@/lib/foundation/group-commit";

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
      if (!isPlainAcceptance(outcome) || outcome.result.outcome !== "accepted")
        throw new Error("recordAcceptedSends takes plain acceptances");
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

/** A process's group commit of plain acceptances (lib/foundation/group-commit.ts): resolves true once the message's
 * record is committed, false if another run had recorded it. */
export function acceptedSendCommitter(db: Executor): GroupCommitter<DeliveryOutcome, boolean> {
  return new GroupCommitter(async (outcomes) => {
    const claimed = await recordAcceptedSends(db, outcomes);
    return outcomes.map((outcome) => claimed.has(outcome.message.id));
  });
}

/** The process's committer for a database (docs/delivery.md "Crash safety"). */
export const acceptedSendRecorder = committerPerDatabase(acceptedSendCommitter);
