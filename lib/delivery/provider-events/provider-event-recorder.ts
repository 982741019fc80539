import "server-only";
import type { Db } from "@/db/client";
import { GroupCommitter, committerPerDatabase } from "@/lib/foundation/group-commit";
import { recordProviderEvents, type ProviderEventEntry, type RecordedReport } from "./record-provider-events";

/**
 * Group commit for provider reports (docs/delivery.md#provider-events; lib/foundation/group-commit.ts): a report
 * is written at once when no group is being written, else with the reports that arrived meanwhile, so
 * each answer still follows its own commit while the statements per report drop to a few per group as
 * the rate grows. A bad report, or a deadlock with another process's group, fails only its own request.
 */
export const providerEventRecorder = committerPerDatabase(
  (db: Db) => new GroupCommitter<ProviderEventEntry, RecordedReport>((entries) => recordProviderEvents(db, entries)),
);
