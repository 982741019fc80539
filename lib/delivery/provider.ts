import "server-only";
import type { Executor } from "@/db/client";
import type { BuiltMime, MailFields } from "./mime/build-mime";
import type { DkimSigningKey } from "./mime/dkim-keys";

// A message in flight, by name: PreparedMessage (lib/sending) is a message accepted and rendered, not yet stored;
// OutboundMail (below) is what a provider gets, made by buildOutboundMail (OutboundMailOrReason when it cannot be);
// MailToSend (pipeline/4-build-mail.ts) is an OutboundMail with its provider and job (attempt, suppressed recipients).

/**
 * One outgoing message as every provider sees it: the structured fields (for HTTP APIs such as Resend)
 * and, for providers that need it, the exact MIME built once by mime/build-mime.ts (SMTP and the
 * local inbox), with its envelope.
 */
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
  /**
   * The transaction the claim holds when the provider is `transactional`; the database otherwise
   * (a provider that talks to the outside world should not need it).
   */
  db: Executor;
  /** 0 on the first try; the queue's retry count after. */
  attempt: number;
}

/**
 * What a send came to. `accepted`: the provider took the message (`referenceId` becomes the message's
 * referenceId; `delivered` when the provider already knows it reached the mailbox). `retry`: a
 * transient failure, tried again later by the queue. `failed`: a permanent rejection; `diagnostic` is
 * shown on the timeline.
 */
export type ProviderResult =
  | { outcome: "accepted"; referenceId: string; delivered?: { at: Date; message: string } }
  | { outcome: "retry"; diagnostic: string }
  | { outcome: "failed"; diagnostic: string };

export interface DeliveryProvider {
  readonly name: "local" | "smtp" | "resend" | "ses" | "simulator";
  /** Completes "Sent through …." on the timeline, e.g. "the local inbox provider". */
  readonly description: string;
  /**
   * True when send() only writes through `ctx.db`: then the claim, the send and the recorded events
   * commit in one transaction, and a re-run is a no-op. False for providers that reach the network:
   * they are sent between a claim and a separate recording transaction (never holding a transaction
   * open across a network call: on PGlite that would stall the whole database).
   */
  readonly transactional: boolean;
  /**
   * True when the provider later reports delivery (Resend's webhook): a sent message with no DELIVERED
   * or bounce after DELIVERY_UNCONFIRMED_AFTER_MINUTES is then flagged (flag-unconfirmed-deliveries.ts).
   * False for SMTP (a relay's 250 is all it gives) and local (DELIVERED is recorded with SENT).
   */
  readonly confirmsDelivery: boolean;
  /**
   * False when the provider reads only the structured fields (Resend's API builds its own MIME): the
   * pipeline then builds no MIME and decrypts no DKIM key for it. Absent means true.
   */
  readonly needsMime?: boolean;
  /** Translates one message to the provider and its answer back. Throws only on unexpected errors. */
  send(mail: OutboundMail, ctx: ProviderContext): Promise<ProviderResult>;
  /**
   * Several messages in as few calls as the provider allows (Resend's batch endpoint): one result per
   * mail, in order. Only for non-transactional providers; absent means one send() per message.
   */
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
