import type { BotVerdict, Client } from "./bot-rules";

/** The same shape as Resend's provider events, plus the bot reason when flagged. */
export function engagementSentence(what: string, at: Date, client: Client, verdict: BotVerdict): string {
  const agent = client.userAgent ? `with ${client.userAgent}` : "with no user agent";
  const flag = verdict.bot ? ` Flagged as bot traffic (${verdict.reason}): moves no timestamp.` : "";
  return `${what} at ${at.toISOString()} from ${client.ip} ${agent}.${flag}`;
}
