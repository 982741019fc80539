import "server-only";
import { isIP } from "node:net";
import type { SMTPServerAddress, SMTPServerAuthentication, SMTPServerSession } from "smtp-server";
import { getDb } from "@/db/client";
import { assertScope, authenticateApiKey } from "@/lib/domain/api-keys/authenticate-api-key";
import { sendScope } from "@/lib/domain/api-keys/scopes.shared";
import { consumeRateLimit } from "@/lib/entry/api/rate-limit";
import { parseAddressEntries, MAX_RECIPIENTS } from "@/lib/foundation/addresses/recipients.shared";
import { assertSenderAllowed, assertTestSenderMaySend, sendRouteOf } from "@/lib/domain/domains/assert-sender-allowed";
import { listMemberEmails, assertTestModeRecipients } from "@/lib/sending/test-mode-recipients";
import { getWorkspaceOrThrow } from "@/lib/domain/workspaces/get-workspace-or-throw";
import { ENCRYPTION_REQUIRED } from "@/internals/smtp-server";
import { recordSmtpActivity } from "./record-smtp-activity";
import { SmtpReply, smtpReplyFor } from "./smtp-reply";

/** Who is sending on this connection: set by AUTH, kept as smtp-server's `session.user`. */
export interface SubmissionPrincipal {
  apiKeyId: string;
  workspaceId: string;
  sandbox: boolean;
  /** The credentials as the API takes them, re-checked at each MAIL FROM (the API's revocation bound: the next request). */
  authorization: string;
}

/** What MAIL FROM learnt, for RCPT TO: the workspace's test mode and, in it, its members. */
interface Transaction {
  members: Set<string> | null;
}

// Keyed by the envelope object, which smtp-server replaces after each message and on RSET.
const transactions = new WeakMap<object, Transaction>();

/** `key_…` for live mail, `key_…+sandbox` for the sandbox (docs/api.md#smtp-authentication). */
const USERNAME = /^(key_[0-9A-Za-z]{16})(\+sandbox)?$/;

export function principalOf(session: SMTPServerSession): SubmissionPrincipal {
  const principal = session.user as SubmissionPrincipal | undefined;
  if (!principal)
    throw new SmtpReply(
      530,
      "5.7.0 Authentication required: AUTH with an API key first. This service relays for no one else.",
    );
  return principal;
}

/** AUTH without TLS only from the same host, and only when the operator allows it (SMTP_ALLOW_INSECURE_AUTH). */
export function mayAuthenticate(
  session: Pick<SMTPServerSession, "secure" | "remoteAddress">,
  allowInsecureOnLoopback: boolean,
): boolean {
  return session.secure || (allowInsecureOnLoopback && isLoopback(session.remoteAddress));
}

function isLoopback(address: string): boolean {
  const bare = address.replace(/^::ffff:/i, "");
  return bare === "::1" || (isIP(bare) === 4 && bare.startsWith("127."));
}

/** AUTH PLAIN / LOGIN: the API key's username and secret, through the API's own check. */
export async function authenticate(
  auth: SMTPServerAuthentication,
  session: SMTPServerSession,
  allowInsecure: boolean,
): Promise<SubmissionPrincipal> {
  // The same reply as smtp-server's own refusal before STARTTLS (internals/smtp-server.ts).
  if (!mayAuthenticate(session, allowInsecure)) throw new SmtpReply(538, ENCRYPTION_REQUIRED);
  const match = USERNAME.exec(auth.username ?? "");
  const password = auth.password ?? "";
  // A malformed username still goes through the check (with a name that cannot match), so timing tells nothing.
  const authorization = `Basic ${Buffer.from(`${match?.[1] ?? "key_0000000000000000"}:${password}`).toString("base64")}`;
  try {
    const principal = await authenticateApiKey(authorization);
    if (!match) throw new SmtpReply(535, "5.7.8 Authentication credentials invalid.");
    // The scopes of POST /v1/email_messages and its sandbox twin: a key limited to the sandbox sends no real mail here either.
    assertScope(principal, sendScope(Boolean(match[2])));
    return { ...principal, sandbox: Boolean(match[2]), authorization };
  } catch (error) {
    if (error instanceof SmtpReply) throw error;
    throw smtpReplyFor(error).responseCode === 535
      ? new SmtpReply(
          535,
          "5.7.8 Authentication credentials invalid: the username is an API key's id (key_…), the password its secret.",
        )
      : smtpReplyFor(error);
  }
}

/** The key still valid, its rate limit (a message counts as one request), a verified sender domain. */
export async function checkMailFrom(address: SMTPServerAddress, session: SMTPServerSession): Promise<void> {
  const started = performance.now();
  const principal = principalOf(session);
  try {
    await consumeRateLimit(principal.apiKeyId, {});
    if (!address.address)
      throw new SmtpReply(550, "5.7.1 A null sender (MAIL FROM:<>) cannot send through this service.");
    const db = await getDb();
    // Read at once, judged in order, so a revoked key hears only that, never whether the domain is verified.
    const [key, domain, workspace] = await Promise.allSettled([
      authenticateApiKey(principal.authorization),
      // The test sender's verdict needs the recipients: RCPT gives it.
      assertSenderAllowed(db, principal.workspaceId, address.address, "later"),
      getWorkspaceOrThrow(db, principal.workspaceId),
    ]);
    for (const outcome of [key, domain, workspace]) if (outcome.status === "rejected") throw outcome.reason;
    const { testMode } = (workspace as PromiseFulfilledResult<{ testMode: boolean }>).value;
    const members = testMode && !principal.sandbox ? await listMemberEmails(db, principal.workspaceId) : null;
    transactions.set(session.envelope, { members });
  } catch (error) {
    const reply = smtpReplyFor(error);
    recordSmtpActivity(principal, { step: "MAIL", reply, started, request: { mailFrom: address.address } });
    throw reply;
  }
}

/** RCPT TO: at most 50 recipients per message (452 4.5.3: the client sends the rest in another); test mode as the API. */
export function checkRcptTo(address: SMTPServerAddress, session: SMTPServerSession): void {
  const { sandbox } = principalOf(session);
  if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) {
    throw new SmtpReply(
      452,
      `4.5.3 Too many recipients: at most ${MAX_RECIPIENTS} per message; send the others in another message.`,
    );
  }
  try {
    const [recipient] = parseAddressEntries([address.address], "to");
    const mailFrom = session.envelope.mailFrom;
    // The test sender, let through at MAIL FROM, goes only where nothing leaves the machine.
    if (mailFrom) assertTestSenderMaySend(mailFrom.address, sendRouteOf(sandbox, [recipient.address]));
    const members = transactions.get(session.envelope)?.members;
    if (members) assertTestModeRecipients({ to: [recipient], cc: [], bcc: [] }, members, (name) => name);
  } catch (error) {
    const reply = smtpReplyFor(error);
    throw reply.responseCode === 550 && reply.message.startsWith("5.1.3") ? new SmtpReply(553, reply.message) : reply;
  }
}
