import "server-only";
import type { Db } from "@/db/client";
import { GroupCommitter, committerPerDatabase } from "@/lib/foundation/group-commit";
import { recordProviderEvents, type ProviderEventEntry, type RecordedReport } from "./record-provider-events";

// Group commit: each answer still follows its own commit; a bad report fails only its own request.
export const providerEventRecorder = committerPerDatabase(
  (db: Db) => new GroupCommitter<ProviderEventEntry, RecordedReport>((entries) => recordProviderEvents(db, entries)),
);
