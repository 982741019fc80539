import "server-only";
import { log } from "@/lib/foundation/log";
import { capitalizedDescription, type ProviderResult } from "../provider";
import type { MailToSend } from "./4-build-mail";

/** What came of a message to send: null when another run had claimed it first. */
export type SendResult = ProviderResult | null;

/** Settled as soon as it is made, so a failure waits for its reader without an unhandled rejection. */
export type Settled = { ok: true; result: SendResult } | { ok: false; error: unknown };

export const settle = (promise: Promise<SendResult>): Promise<Settled> =>
  promise.then(
    (result) => ({ ok: true as const, result }),
    (error: unknown) => ({ ok: false as const, error }),
  );

/** Step 7: a send's result as its job's result. A transient failure before the last attempt is retried. */
export function jobResultOf(entry: MailToSend, settled: Settled): Error | null {
  if (!settled.ok) return asError(settled.error);
  const result = settled.result;
  if (!result) return null;
  if (result.outcome === "retry" && !entry.lastAttempt) {
    return new Error(`${capitalizedDescription(entry.provider)} asked to try again later: ${result.diagnostic}`);
  }
  return null;
}

export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** One "messages handed to provider" line per provider and outcome, not one per message. */
export class HandedOverLog {
  private readonly groups = new Map<string, { provider: string; outcome: string; messageIds: string[] }>();

  add(entry: MailToSend, outcome: string): void {
    const key = `${entry.provider.name}\n${outcome}`;
    const group = this.groups.get(key) ?? { provider: entry.provider.name, outcome, messageIds: [] };
    group.messageIds.push(entry.mail.messageId);
    this.groups.set(key, group);
  }

  write(): void {
    for (const group of this.groups.values()) log.info("messages handed to provider", group);
  }
}
