import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import { getDb } from "@/db/client";
import { inboundMessages } from "@/db/schema";
import { getMessageDetail, type MessageDetail } from "@/lib/domain/messages/get-message-detail";
import { bareAddress, messageIdHeader } from "@/lib/foundation/addresses/sender-address.shared";
import { replyLocalPart, verifyReplyLocalPart } from "@/lib/foundation/crypto/bounce-token";
import { inboundListenerAddress as configuredListener } from "@/lib/foundation/inbound-listener";
import { env } from "@/lib/foundation/env";
import { AppError, notFound } from "@/lib/foundation/errors";

export interface SimulatedReply {
  /** The envelope recipient the reply went to: the message's reply address, or its reply token at BOUNCE_DOMAIN. */
  to: string;
  /** The Message-ID header the simulated reply carried. */
  messageIdHeader: string;
  /** What the listener stored (one row per accepted recipient; none when it was a duplicate). */
  inboundMessageIds: string[];
}

/** Where the listener of this instance accepts mail: loopback when it listens on every interface. */
export function inboundListenerAddress(): { host: string; port: number } | null {
  const listener = configuredListener(env());
  if (!listener || listener.port === 0) return null;
  const { host, port } = listener;
  return { host: host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host, port };
}

/**
 * The dashboard's "Simulate a reply" (docs/dashboard.md#inbound-inbound): a reply to a sent message, as its recipient's
 * mail client would write it (Re:, In-Reply-To and References naming the message's Message-ID, the quoted
 * original under an "On … wrote:" line), handed to this instance's inbound listener over SMTP, so it takes exactly
 * the MX path (`npm run cli -- inbound send` injects a file the same way). Refused with a clear error when
 * the listener is not configured or not running.
 */
export async function simulateReply(workspaceId: string, messageId: string): Promise<SimulatedReply> {
  const detail = await getMessageDetail(workspaceId, messageId);
  if (!detail) throw notFound("Email message", "messageId");
  const { message } = detail;
  const listener = inboundListenerAddress();
  if (!listener)
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      "The inbound listener is off on this server: set SMTP_INBOUND_PORT to receive replies.",
    );
  const to = replyAddress(message);
  const replier = bareAddress(message.to[0] ?? "") ?? "recipient@example.org";
  const header = `<simulated-${randomBytes(8).toString("hex")}@postwerk.test>`;
  const original = messageIdHeader(message.id, message.from);
  const transport = nodemailer.createTransport({
    host: listener.host,
    port: listener.port,
    secure: false,
    ignoreTLS: true,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  try {
    await transport.sendMail({
      envelope: { from: replier, to: [to] },
      from: message.to[0] ?? replier,
      to: message.replyTo ?? message.from,
      subject: /^re:/i.test(message.subject) ? message.subject : `Re: ${message.subject}`,
      messageId: header,
      inReplyTo: original,
      references: [original],
      text: replyText(message),
    });
  } catch (error) {
    throw listenerError(error, listener);
  } finally {
    transport.close();
  }
  // The listener commits before it answers 250, so the rows are there now.
  const stored = await (
    await getDb()
  )
    .select({ id: inboundMessages.id })
    .from(inboundMessages)
    .where(and(eq(inboundMessages.workspaceId, workspaceId), eq(inboundMessages.messageIdHeader, header)));
  return { to, messageIdHeader: header, inboundMessageIds: stored.map((row) => row.id) };
}

/** The message's own reply-tracking address when it has one, else its reply token at BOUNCE_DOMAIN. */
function replyAddress(message: MessageDetail): string {
  const replyTo = message.replyTo ? bareAddress(message.replyTo) : null;
  if (replyTo && verifyReplyLocalPart(replyTo.slice(0, replyTo.lastIndexOf("@"))) === message.id) return replyTo;
  const domain = env().BOUNCE_DOMAIN;
  if (!domain)
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      "Set BOUNCE_DOMAIN: a simulated reply is addressed to the message's reply token at that domain.",
    );
  return `${replyLocalPart(message.id)}@${domain.toLowerCase()}`;
}

/** A short answer above the quoted original, the shape reply stripping removes. */
function replyText(message: MessageDetail): string {
  const quoted = (message.bodyText || message.subject || "")
    .split(/\r?\n/)
    .slice(0, 20)
    .map((line) => `> ${line}`)
    .join("\n");
  const when = (message.sentAt ?? message.createdAt).toUTCString();
  return `Thanks, that answers my question.\n\nOn ${when}, ${message.from} wrote:\n${quoted}\n`;
}

function listenerError(error: unknown, listener: { host: string; port: number }): AppError {
  const failure = error as { code?: string; responseCode?: number; response?: string; message?: string };
  if (failure.code === "ECONNREFUSED" || failure.code === "ETIMEDOUT" || failure.code === "ESOCKET")
    return new AppError(
      "SERVICE_UNAVAILABLE",
      `The inbound listener is not running on ${listener.host}:${listener.port}: start the server with SMTP_INBOUND_PORT set, or \`npm run inbound\`.`,
    );
  if (failure.responseCode)
    return new AppError(
      "CONFLICT",
      `The inbound listener refused the reply: ${failure.response ?? failure.responseCode}`,
      { param: "messageId" },
    );
  return new AppError(
    "SERVICE_UNAVAILABLE",
    `The reply could not be handed to the inbound listener: ${failure.message ?? error}`,
  );
}
