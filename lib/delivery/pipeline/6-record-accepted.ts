import "server-only";
import type { Executor } from "@/db/client";
import { recordSentEvents } from "@/lib/records/timeline/record-event";
import type { DeliveryOutcome } from "./6-record";
import { sentDetails, sentWords } from "./6-sent-words";
import { GroupCommitter, committerPerDatabase } from "@/lib/foundation/group-commit";

/** An accepted answer with nothing else to record: recordAcceptedSends' one statement covers it. */
export function isPlainAcceptance({ result, suppressed }: DeliveryOutcome): boolean {
  return result.outcome === "accepted" && !result.delivered && suppressed.length === 0;
}

/** Plain acceptances in one statement; returns the ids claimed (a missing one was recorded by another run). */
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
        message: sentWords(outcome),
        providerEventId: `${provider.name}:sent`,
        details: sentDetails(outcome, result.referenceId),
      };
    }),
  );
}

/** Resolves true once the message's record is committed, false if another run had recorded it. */
export function acceptedSendCommitter(db: Executor): GroupCommitter<DeliveryOutcome, boolean> {
  return new GroupCommitter(async (outcomes) => {
    const claimed = await recordAcceptedSends(db, outcomes);
    return outcomes.map((outcome) => claimed.has(outcome.message.id));
  });
}

export const acceptedSendRecorder = committerPerDatabase(acceptedSendCommitter);
