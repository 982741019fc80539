import "server-only";
import { getDb, type Executor } from "@/db/client";
import { parseAddressEntries, parseSingleAddress } from "@/lib/foundation/addresses/recipients.shared";
import { assertKeyMaySendAs } from "@/lib/domain/api-keys/restrictions";
import { assertSenderAllowed, sendRouteOf } from "@/lib/domain/domains/assert-sender-allowed";
import { AppError } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import { getMessageOrThrow, type EmailMessageRow } from "@/lib/domain/messages/get-message-or-throw";
import { queueTransaction } from "@/lib/records/queue/queue";
import { getWorkspaceOrThrow } from "@/lib/domain/workspaces/get-workspace-or-throw";
import { acceptMessages } from "./accept-messages";
import { claimIdempotencyKey, hashRequestBody } from "./idempotency";
import type { PreparedMessage } from "./prepare-message";
import { assertTestModeRecipients, listMemberEmails } from "./test-mode-recipients";
import type { SendMessageResult } from "./send-message";

export interface ResendInput {
  workspaceId: string;
  messageId: string;
  /** Absent: the original's environment. A sandbox message is never resent live. */
  sandbox?: boolean;
  /** The resending key's allowed senders: the original's sender must be one (lib/domain/api-keys/restrictions.ts). */
  allowedSenders?: readonly string[];
  /** Idempotency key (as for a send); without it the new message keeps the original's metaId. */
  metaId?: string;
  /** Who asks: the API or the dashboard's Resend button (docs/dashboard.md#how-it-was-sent). */
  submittedVia?: "api" | "dashboard";
}

/**
 * The original's stored content again, through the one accept path (docs/api.md#post-v1email_messagesidresend).
 * Not re-rendered: "the same message again" is the ask. 409 when the content is gone or sandbox would go live.
 */
export async function resendMessage(input: ResendInput): Promise<SendMessageResult> {
  const db = await getDb();
  const original = await getMessageOrThrow(input.workspaceId, input.messageId);
  const sandbox = input.sandbox ?? original.sandbox;
  assertResendable(original, sandbox);
  const workspace = await getWorkspaceOrThrow(db, input.workspaceId);
  const prepared = await prepareResend(db, original, { ...input, sandbox, testMode: workspace.testMode });
  const outcome = await queueTransaction(async (tx) => {
    if (input.metaId) {
      const earlier = await claimIdempotencyKey(tx, {
        workspaceId: workspace.id,
        scope: sandbox ? "email_messages_resend:sandbox" : "email_messages_resend:live",
        metaId: input.metaId,
        requestHash: hashRequestBody({ resendOf: original.id }),
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

function assertResendable(original: EmailMessageRow, sandbox: boolean): void {
  if (original.status === "DELETED" || original.contentPurgedAt !== null) {
    throw new AppError(
      "CONFLICT",
      `Email message ${original.id} cannot be resent: its content was erased or purged, so there is nothing to send again.`,
      { param: "id" },
    );
  }
  if (original.sandbox && !sandbox) {
    throw new AppError(
      "CONFLICT",
      `Email message ${original.id} is a sandbox message: it cannot be resent live. Send it through POST /v1/email_messages instead.`,
      { param: "id" },
    );
  }
}

/** The checks of a send that can change after the original was accepted: sender domain and test mode. */
async function prepareResend(
  db: Executor,
  original: EmailMessageRow,
  input: ResendInput & { sandbox: boolean; testMode: boolean },
): Promise<PreparedMessage> {
  const recipients = {
    to: parseAddressEntries(original.to, "to"),
    cc: parseAddressEntries(original.cc, "cc"),
    bcc: parseAddressEntries(original.bcc, "bcc"),
  };
  const sender = parseSingleAddress(original.from, "from", "EMAIL_MESSAGE_INVALID_SENDER_ERROR");
  assertKeyMaySendAs(input.allowedSenders, sender.address, "from");
  const addresses = [...recipients.to, ...recipients.cc, ...recipients.bcc].map((recipient) => recipient.address);
  await assertSenderAllowed(db, input.workspaceId, sender.address, sendRouteOf(input.sandbox, addresses));
  if (input.testMode && !input.sandbox)
    assertTestModeRecipients(recipients, await listMemberEmails(db, input.workspaceId), (name) => name);
  return {
    id: newId("message"),
    workspaceId: input.workspaceId,
    source: input.sandbox ? "SANDBOX_API" : "API",
    submittedVia: input.submittedVia,
    sandbox: input.sandbox,
    templateId: original.templateId,
    // A resend or a workflow step goes out at once.
    scheduledAt: null,
    groupId: original.groupId,
    variables: original.variables,
    to: original.to,
    toAddresses: original.toAddresses,
    cc: original.cc,
    bcc: original.bcc,
    from: original.from,
    replyTo: original.replyTo,
    subject: original.subject,
    bodyHtml: original.bodyHtml,
    bodyText: original.bodyText,
    headers: original.headers,
    attachments: original.attachments,
    metaId: input.metaId ?? original.metaId,
    metadata: original.metadata,
    // The resend is the same mail again, so it is found by the same tags.
    tags: original.tags,
    locale: original.locale,
    requestedLocale: original.requestedLocale,
    contacts: [...recipients.to, ...recipients.cc, ...recipients.bcc],
    renderedFrom: "",
    resentFromId: original.id,
  };
}
