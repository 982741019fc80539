import "server-only";
import { currentTraceParent } from "@/lib/foundation/tracing";
import { and, eq } from "drizzle-orm";
import { getDb, type Db } from "@/db/client";
import { inboundDedupeKeys } from "@/db/schema";
import { GroupCommitter, committerPerDatabase } from "@/lib/foundation/group-commit";
import { DuplicateMail, writeInboundGroup, type StoreInput } from "./store-inbound-group";

export type { StoreInput };

/** A group's raw bytes, at most: a burst of large mails is split (a larger mail goes alone). */
const MAX_GROUP_BYTES = 8 * 1024 * 1024;

/**
 * Copies whose DATA ends while a group is written share the next group's transaction (lib/foundation/group-commit.ts);
 * a failed group, a duplicate in it included, is written again copy by copy, so one copy's error stays its own
 * (docs/benchmarks.md, bench:inbound).
 */
const inboundCommitter = committerPerDatabase(
  (_db: Db) =>
    new GroupCommitter<StoreInput, string>(writeInboundGroup, {
      weigh: (input) => input.raw.length,
      maxWeight: MAX_GROUP_BYTES,
    }),
);

/**
 * Stores one recipient's copy with its raw bytes, thread, email.received row (webhook action), the REPLIED event on the
 * original and the actions job, committed when this returns (docs/architecture.md#the-queue), or nothing. Null for a
 * duplicate (inbound_dedupe_keys): nothing else is written for it.
 */
export async function storeInboundMessage(input: StoreInput): Promise<string | null> {
  return inboundCommitter(await getDb())
    .submit({ ...input, traceParent: currentTraceParent() })
    .catch((error: unknown) => {
      if (error instanceof DuplicateMail) return null;
      throw error;
    });
}

/** A retry of a stored mail, found before its attachments are written again (the insert's conflict stays the guard). */
export async function isStored(workspaceId: string, dedupeKey: string): Promise<boolean> {
  const db = await getDb();
  const [found] = await db
    .select({ id: inboundDedupeKeys.inboundMessageId })
    .from(inboundDedupeKeys)
    .where(and(eq(inboundDedupeKeys.workspaceId, workspaceId), eq(inboundDedupeKeys.dedupeKey, dedupeKey)))
    .limit(1);
  return found !== undefined;
}
