import "server-only";
import { getDb } from "@/db/client";
import { queueTransaction } from "@/lib/queue/queue";
import { getWorkspaceOrThrow } from "@/lib/workspaces/get-workspace-or-throw";
import { acceptMessages } from "./accept-messages";
import { getMessageOrThrow, type EmailMessageRow } from "@/lib/messages/get-message-or-throw";
import { claimIdempotencyKey, hashRequestBody } from "./idempotency";
import { parseSendRequest } from "./parse-send-request";
import { prepareMessage } from "./prepare-message";

export interface SendMessageResult {
  message: EmailMessageRow;
  /** True when metaId and body matched an earlier request: nothing new was created. */
  replayed: boolean;
}

/**
 * POST /v1/email_messages and its sandbox twin (docs/api.md#decided-sending, #decided-idempotency). Validation,
 * template lookup and rendering happen here, so the caller learns of every problem at once; the
 * message, its first events, its contacts and its delivery job then commit in one transaction.
 */
export async function sendMessage(input: { workspaceId: string; sandbox: boolean; body: unknown; allowedSenders?: readonly string[] }): Promise<SendMessageResult> {
  const command = parseSendRequest(input.body);
  const db = await getDb();
  const workspace = await getWorkspaceOrThrow(db, input.workspaceId);
  const prepared = await prepareMessage(db, command, {
    workspace,
    sandbox: input.sandbox,
    allowedSenders: input.allowedSenders,
    source: input.sandbox ? "SANDBOX_API" : "API",
  });
  const outcome = await queueTransaction(async (tx) => {
    if (command.metaId) {
      const earlier = await claimIdempotencyKey(tx, {
        workspaceId: workspace.id,
        scope: input.sandbox ? "email_messages:sandbox" : "email_messages:live",
        metaId: command.metaId,
        requestHash: hashRequestBody(input.body),
        resourceId: prepared.id,
      });
      if (earlier) return { replayOf: earlier };
    }
    const [created] = await acceptMessages(tx, [prepared]);
    return { created };
  });
  if (outcome.created) return { message: outcome.created, replayed: false };
  return { message: await getMessageOrThrow(workspace.id, outcome.replayOf!), replayed: true };
}
