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
 * Single sends that arrive while another group is being written commit together: one transaction and
 * one accept statement for all of them (lib/foundation/group-commit.ts; docs/api.md#decided-sending). A send is
 * answered only once its group has committed, so nothing answered is lost; one waits at most for the
 * group already running and its own, never for company. A group that fails (one entry's constraint,
 * a deadlock) is written again entry by entry, so one send's error stays its own. Under concurrent
 * sends the transaction's fixed costs (the executor's start, the
 * statement triggers, the commit's WAL flush) are paid once per group instead of once per send
 * (docs/benchmarks.md#single-sends-committed-together-issue-20-2026-11-27-session-12).
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
