import "server-only";
import { getDb } from "@/db/client";
import { MAX_MESSAGE_ATTACHMENT_BYTES } from "@/lib/domain/attachments/schemas";
import { queueTransaction } from "@/lib/records/queue/queue";
import { getWorkspaceOrThrow } from "@/lib/domain/workspaces/get-workspace-or-throw";
import { acceptMessages } from "./accept-messages";
import { singleSendCommitter } from "./accept-together";
import { getMessageOrThrow, type EmailMessageRow } from "@/lib/domain/messages/get-message-or-throw";
import { claimIdempotencyKey, hashRequestBody } from "./idempotency";
import { parseSendDraft, parseSendRequest, type SendDraft } from "./parse-send-request";
import { prepareMessage } from "./prepare-message";
import { inSpan } from "@/lib/foundation/tracing";

export interface SendMessageResult {
  message: EmailMessageRow;
  /** True when metaId and body matched an earlier request: nothing new was created. */
  replayed: boolean;
}

export interface SendMessageInput {
  workspaceId: string;
  sandbox: boolean;
  /** The JSON body for the API; for SMTP the SendDraft mapped from the mail. */
  body: unknown;
  /** "smtp" (docs/api.md#smtp-submission) allows Bcc-only mail and larger inline attachments; the rest is the API's. */
  channel?: "api" | "smtp";
  /** The key's sender restriction (docs/api.md#key-restrictions): a `from` outside it is refused, naming `from`. */
  allowedSenders?: readonly string[];
  /**
   * What no public field sets, added by the use cases that send on the service's behalf: a reply's thread and its
   * `in-reply-to`/`references` (docs/inbound.md#the-reply-api), a forward's loop header. Never read from a body.
   */
  internal?: { threadId?: string; headers?: Record<string, string> };
}

/** POST /v1/email_messages and its sandbox twin (docs/api.md#decided-sending, #decided-idempotency). */
export async function sendMessage(input: SendMessageInput): Promise<SendMessageResult> {
  const smtp = input.channel === "smtp";
  const command = smtp
    ? parseSendDraft(input.body as SendDraft, "", { allowEmptyTo: true })
    : parseSendRequest(input.body);
  const db = await getDb();
  const workspace = await getWorkspaceOrThrow(db, input.workspaceId);
  const prepared = await prepareMessage(db, command, {
    workspace,
    sandbox: input.sandbox,
    allowedSenders: input.allowedSenders,
    source: input.sandbox ? "SANDBOX_API" : "API",
    submittedVia: smtp ? "smtp" : "api",
    // The API's 5 MB inline cap protects a JSON body; SMTP mail is bounded by its SIZE limit instead.
    inlineAttachmentMaxBytes: smtp ? MAX_MESSAGE_ATTACHMENT_BYTES : undefined,
  });
  if (input.internal?.threadId) prepared.threadId = input.internal.threadId;
  if (input.internal?.headers) prepared.headers = { ...prepared.headers, ...input.internal.headers };
  // Without a metaId there is nothing to claim first: the send joins the group being committed.
  const metaId = command.metaId;
  // The accept span: the message, its events and its job committing (with others', in a group commit).
  const accepting = { attributes: { "postwerk.message_id": prepared.id, "postwerk.workspace_id": workspace.id } };
  if (!metaId)
    return {
      message: await inSpan("accept", accepting, () => singleSendCommitter(db).submit(prepared)),
      replayed: false,
    };
  const outcome = await inSpan("accept", accepting, () =>
    queueTransaction(async (tx) => {
      const earlier = await claimIdempotencyKey(tx, {
        workspaceId: workspace.id,
        scope: input.sandbox ? "email_messages:sandbox" : "email_messages:live",
        metaId,
        requestHash: hashRequestBody(input.body),
        resourceId: prepared.id,
      });
      if (earlier) return { replayOf: earlier };
      const [created] = await acceptMessages(tx, [prepared]);
      return { created };
    }),
  );
  if (outcome.created) return { message: outcome.created, replayed: false };
  return { message: await getMessageOrThrow(workspace.id, outcome.replayOf!), replayed: true };
}
