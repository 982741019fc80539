import "server-only";
import type { Executor } from "@/db/client";
import { metrics } from "@/lib/foundation/metrics/metrics";
import { inSpan, setSpanAttributes, SpanKind } from "@/lib/foundation/tracing";
import type { DeliveryProvider, ProviderResult } from "../provider";
import type { MailToSend } from "./4-build-mail";

/** A provider's answer for one mail, and when its hand-off began (the SENT event's time). */
export interface Answer {
  result: ProviderResult;
  startedAt: Date;
}

/** Step 5: `db` is the claim's transaction for a transactional provider, the database otherwise. */
export async function send(db: Executor, entry: MailToSend): Promise<Answer> {
  const startedAt = new Date();
  const result = await inSpan("provider hand-off", handoffSpan(entry), () =>
    countHandoff(entry, entry.provider.send(entry.mail, { db, attempt: entry.attempt })).then((answer) => {
      setSpanAttributes({ "postwerk.provider.outcome": answer.outcome });
      return answer;
    }),
  );
  return { result, startedAt };
}

/** Step 5 for a provider with sendMany: one call, one answer per mail in order, each recorded as it comes. */
export function sendMany(db: Executor, group: MailToSend[]): Array<Promise<Answer>> {
  const startedAt = new Date();
  const attempt = Math.min(...group.map((entry) => entry.attempt));
  const options = handoffSpan(group[0], { "postwerk.mails": group.length });
  const answers = inSpan("provider hand-off", options, () =>
    group[0].provider.sendMany!(
      group.map((entry) => entry.mail),
      { db, attempt },
    ),
  );
  return group.map((entry, index) =>
    countHandoff(
      entry,
      answers.then((all) => all[index]),
    ).then((result) => ({ result, startedAt })),
  );
}

/** The hand-off's client span: provider, connection and attempt; never an address or the content. */
function handoffSpan(entry: MailToSend, more: Record<string, number> = {}) {
  return {
    kind: SpanKind.CLIENT,
    attributes: {
      "postwerk.provider": entry.provider.name,
      "postwerk.connection": entry.hop?.name ?? "none",
      "postwerk.attempt": entry.attempt,
      ...more,
    },
  };
}

/** postwerk_provider_handoffs_total: the provider's answer, or "error" when the call itself threw. */
function countHandoff(entry: MailToSend, answer: Promise<ProviderResult>): Promise<ProviderResult> {
  const provider = entry.provider.name;
  return answer.then(
    (result) => {
      metrics().providerHandoffs.inc({ provider, outcome: result.outcome });
      return result;
    },
    (error: unknown) => {
      metrics().providerHandoffs.inc({ provider, outcome: "error" });
      throw error;
    },
  );
}

/** The mails by provider, each group in the batch's order: a provider with sendMany gets its group at once. */
export function byProvider(entries: MailToSend[]): MailToSend[][] {
  const groups = new Map<DeliveryProvider, MailToSend[]>();
  for (const entry of entries) groups.set(entry.provider, [...(groups.get(entry.provider) ?? []), entry]);
  return [...groups.values()];
}

// On PGlite every transaction queues for the one connection: a few at a time keep API requests' wait short.
export const TRANSACTIONS_AT_ONCE = 4;

export function inTurns(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
