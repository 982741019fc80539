import "server-only";
import type { Db } from "@/db/client";
import { GroupCommitter, committerPerDatabase } from "@/lib/foundation/group-commit";
import type { EmailMessageRow } from "@/lib/domain/messages/get-message-or-throw";
import { queueTransaction } from "@/lib/records/queue/queue";
import { acceptMessages } from "./accept-messages";
import type { PreparedMessage } from "./prepare-message";

/** A group's bodies, at most: a burst of large sends is split into several groups (a larger send goes alone). */
const MAX_GROUP_CHARACTERS = 8 * 1024 * 1024;
const weighMessage = (message: PreparedMessage) =>
  message.bodyHtml.length + message.bodyText.length + message.subject.length;

/**
 * Concurrent single sends commit together, each answered only after its group commits; a failed group is written
 * again entry by entry (docs/benchmarks.md#single-sends-committed-together-issue-20-2026-11-27-session-12).
 */
export const singleSendCommitter = committerPerDatabase(
  (_db: Db) =>
    new GroupCommitter<PreparedMessage, EmailMessageRow>(
      (prepared) => queueTransaction((tx) => acceptMessages(tx, prepared)),
      {
        weigh: weighMessage,
        maxWeight: MAX_GROUP_CHARACTERS,
      },
    ),
);
