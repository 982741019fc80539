import "server-only";
import type { Executor } from "@/db/client";
import type { BuiltMime, MailFields } from "./mime/build-mime";
import type { DkimSigningKey } from "./mime/dkim-keys";

// PreparedMessage (lib/sending): accepted and rendered, not stored; OutboundMail (below): what a provider gets;
// MailToSend (pipeline/4-build-mail.ts): an OutboundMail with its provider and job.

/** One outgoing message: structured fields (HTTP APIs) and, for providers that need it, the exact MIME. */
export interface OutboundMail {
  workspaceId: string;
  /** `em_…`: the idempotency key to give providers that deduplicate. */
  messageId: string;
  fields: MailFields;
  /** Null for a provider whose `needsMime` is false: nothing was built or signed for it. */
  mime: BuiltMime | null;
  /** The sending domain's key, when the caller already read it (the batch path reads all at once). */
  dkim?: DkimSigningKey;
}

export interface ProviderContext {
  /** The claim's transaction for a `transactional` provider; the database otherwise. */
  db: Executor;
  /** 0 on the first try; the queue's retry count after. */
  attempt: number;
}

/**
 * `accepted`: the provider took it (`delivered` when it already knows of the mailbox). `retry`: transient, the
 * queue tries again. `failed`: permanent. `diagnostic` is shown on the timeline.
 */
export type ProviderResult =
  | { outcome: "accepted"; referenceId: string; delivered?: { at: Date; message: string } }
  | {
      outcome: "retry";
      diagnostic: string;
      /** The provider certainly did not take the message (no connection, an envelope refused, an HTTP error answer):
       * a route may hand it to its next connection. Absent: the outcome is unclear, only this connection may retry. */
      notAccepted?: boolean;
      /** Held back here (a connection's limit), the provider never asked: says nothing of the connection's health. */
      heldBack?: boolean;
    }
  | { outcome: "failed"; diagnostic: string };

export interface DeliveryProvider {
  readonly name: "local" | "smtp" | "resend" | "ses" | "simulator";
  /** Completes "Sent through …." on the timeline, e.g. "the local inbox provider". */
  readonly description: string;
  /**
   * True when send() only writes through `ctx.db`: claim, send and record commit together. Network providers send
   * outside any transaction (on PGlite one held open across a network call stalls the whole database).
   */
  readonly transactional: boolean;
  /** The provider later reports delivery: a sent message without it is flagged (flag-unconfirmed-deliveries.ts). */
  readonly confirmsDelivery: boolean;
  /** False when the provider reads only the structured fields: no MIME is built for it. Absent means true. */
  readonly needsMime?: boolean;
  /** Translates one message to the provider and its answer back. Throws only on unexpected errors. */
  send(mail: OutboundMail, ctx: ProviderContext): Promise<ProviderResult>;
  /** Several messages in as few calls as allowed, one result per mail in order; non-transactional providers only. */
  sendMany?(mails: OutboundMail[], ctx: ProviderContext): Promise<ProviderResult[]>;
}

/** The MIME of a mail for a provider that needs it (the pipeline built it; see `needsMime`). */
export function mimeOf(mail: OutboundMail): BuiltMime {
  if (!mail.mime) throw new Error(`Message ${mail.messageId} was prepared without MIME for a provider that needs it.`);
  return mail.mime;
}

/** The provider's description at the start of a sentence: "The local inbox provider …". */
export function capitalizedDescription(provider: DeliveryProvider): string {
  return provider.description.charAt(0).toUpperCase() + provider.description.slice(1);
}
