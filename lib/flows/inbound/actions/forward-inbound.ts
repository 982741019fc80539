import "server-only";
import type { InboundAction } from "@/db/schema";
import type { InboundMessageRow } from "@/lib/domain/inbound/serialize-inbound-message";
import { defaultSenderFor } from "@/lib/domain/domains/default-sender";
import { env } from "@/lib/foundation/env";
import { sendMessage } from "@/lib/sending/send-message";

/** Forwards stop here (docs/inbound.md#loops): INBOUND_MAX_HOPS, default 5. */
export function maxHops(): number {
  return env().INBOUND_MAX_HOPS;
}

export type ActionResult = Record<string, unknown> & { index: number; type: string; status: string };

/**
 * One forward through the normal accept path. The idempotency key `inbound:<inm>:<n>` makes a retried job send once;
 * the loop count rides as an internal header (lib/delivery/mime/build-mime.ts), never as a public field.
 */
export async function forwardInbound(
  inbound: InboundMessageRow,
  action: Extract<InboundAction, { type: "forward" }>,
  index: number,
  hopCount: number,
): Promise<ActionResult> {
  const base = { index, type: "forward", to: action.to };
  if (hopCount >= maxHops()) {
    return { ...base, status: "skipped", reason: `the mail has been forwarded ${hopCount} times (limit ${maxHops()})` };
  }
  const from = action.from ?? (await defaultSenderFor(inbound.workspaceId));
  if (!from) return { ...base, status: "failed", reason: "the workspace has no verified sending domain to send from" };
  const subject = /^fwd?:/i.test(inbound.subject.trim()) ? inbound.subject : `Fwd: ${inbound.subject}`;
  const text = inbound.textBody ?? "";
  const { message } = await sendMessage({
    workspaceId: inbound.workspaceId,
    sandbox: false,
    body: {
      from,
      to: [action.to],
      subject: subject.trim() || "Fwd:",
      bodyHtml: inbound.htmlBody?.trim() ? inbound.htmlBody : `<pre>${escapeHtml(text)}</pre>`,
      bodyText: text,
      replyTo: inbound.fromAddress ?? undefined,
      metaId: `inbound:${inbound.id}:${index}`,
      metadata: { inboundMessageId: inbound.id },
    },
    internal: { headers: { "x-postwerk-loop": String(hopCount + 1) } },
  });
  return { ...base, status: "sent", emailMessageId: message.id };
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
