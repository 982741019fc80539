import "server-only";
import { inArray, or, type SQL } from "drizzle-orm";
import type { Db, Executor } from "@/db/client";
import { emailMessages } from "@/db/schema/index";
import { log } from "@/lib/foundation/log";
import { recordEvent, type RecordEventInput } from "@/lib/records/timeline/record-event";
import { isSetRecordable, recordEvents } from "@/lib/records/timeline/record-events";
import { addSuppressions, type AddSuppressionInput } from "@/lib/domain/suppressions/add-suppression";
import { bareAddress } from "@/lib/foundation/addresses/sender-address.shared";
import type { MessageRef, ProviderEvent } from "./provider-event";

/** recordProviderEvent's result, with the workspace its automatic pause check needs and the message's trace. */
export type RecordedReport =
  | { outcome: "recorded" | "duplicate"; messageId: string; workspaceId: string; traceParent: string | null }
  | { outcome: "unknown-message" };

export interface ProviderEventEntry {
  ref: MessageRef;
  event: ProviderEvent;
}

interface FoundMessage {
  id: string;
  workspaceId: string;
  referenceId: string;
  to: string[];
  cc: string[];
  bcc: string[];
  traceParent: string | null;
}

/**
 * A group of provider reports in one transaction, set-based (docs/delivery.md#provider-events); results in the
 * entries' order. The automatic pause check and the metrics are the caller's, after the commit.
 */
export async function recordProviderEvents(db: Db, entries: ProviderEventEntry[]): Promise<RecordedReport[]> {
  const found = await findMessages(
    db,
    entries.map((entry) => entry.ref),
  );
  const targets = entries.map(({ ref }) => {
    const message = "referenceId" in ref ? found.byReference.get(ref.referenceId) : found.byId.get(ref.messageId);
    return ref.workspaceId && message?.workspaceId !== ref.workspaceId ? undefined : message;
  });
  const known = entries.flatMap((entry, index) =>
    targets[index] ? [{ ...entry, index, message: targets[index] }] : [],
  );
  const inputs = known.map(({ message, event }) => timelineInput(message, event));
  const isNew: boolean[] = [];
  const write = async (executor: Executor) => {
    const grouped = inputs.map((input, at) => [input, at] as const).filter(([input]) => isSetRecordable(input));
    const newInGroup = await recordEvents(
      executor,
      grouped.map(([input]) => input),
    );
    grouped.forEach(([, at], position) => (isNew[at] = newInGroup[position]));
    // The sending-state codes and `settles` are no provider's: kept right anyway, one by one.
    for (const [at, input] of inputs.entries())
      if (!isSetRecordable(input)) isNew[at] = await recordEvent(executor, input);
    const listed = known.flatMap(({ message, event }, at) => (isNew[at] ? suppressionsOf(message, event) : []));
    if (listed.length) await addSuppressions(executor, listed);
  };
  // One statement is atomic by itself: a transaction's extra round trips only when there is more to write.
  const single = inputs.every(isSetRecordable) && !known.some(({ event }) => event.suppress);
  await (single ? write(db) : db.transaction(write));
  const results: RecordedReport[] = entries.map(() => ({ outcome: "unknown-message" }));
  known.forEach(
    ({ index, message }, at) =>
      (results[index] = {
        outcome: isNew[at] ? "recorded" : "duplicate",
        messageId: message.id,
        workspaceId: message.workspaceId,
        traceParent: message.traceParent,
      }),
  );
  return results;
}

async function findMessages(
  db: Db,
  refs: MessageRef[],
): Promise<{ byReference: Map<string, FoundMessage>; byId: Map<string, FoundMessage> }> {
  const m = emailMessages;
  // An empty referenceId is the column's default (not handed to a provider yet): it names no message.
  const referenceIds = [
    ...new Set(refs.flatMap((ref) => ("referenceId" in ref && ref.referenceId ? [ref.referenceId] : []))),
  ];
  const ids = [...new Set(refs.flatMap((ref) => ("messageId" in ref ? [ref.messageId] : [])))];
  const conditions: SQL[] = [];
  if (referenceIds.length) conditions.push(inArray(m.referenceId, referenceIds));
  if (ids.length) conditions.push(inArray(m.id, ids));
  const byReference = new Map<string, FoundMessage>();
  const byId = new Map<string, FoundMessage>();
  if (!conditions.length) return { byReference, byId };
  const rows = await db
    .select({
      id: m.id,
      workspaceId: m.workspaceId,
      referenceId: m.referenceId,
      to: m.to,
      cc: m.cc,
      bcc: m.bcc,
      traceParent: m.traceParent,
    })
    .from(m)
    .where(or(...conditions));
  const wanted = new Set(ids);
  for (const row of rows) {
    if (wanted.has(row.id)) byId.set(row.id, row);
    if (row.referenceId && !byReference.has(row.referenceId)) byReference.set(row.referenceId, row);
  }
  return { byReference, byId };
}

function timelineInput(message: FoundMessage, event: ProviderEvent): RecordEventInput {
  return {
    workspaceId: message.workspaceId,
    messageId: message.id,
    code: event.code,
    message: event.message,
    at: event.at,
    providerEventId: event.providerEventId,
    bot: event.bot,
    details: { provider: event.source, type: event.type, ...event.details },
  };
}

function suppressionsOf(message: FoundMessage, event: ProviderEvent): AddSuppressionInput[] {
  if (!event.suppress) return [];
  const reason = event.suppress;
  return suppressedAddresses(message, event).map((email) => ({
    workspaceId: message.workspaceId,
    email,
    reason,
    emailMessageId: message.id,
    detail: event.message,
  }));
}

/**
 * Only recipients the message was really sent to, so a forged address never lands on the list; a report naming
 * none lists the message's only recipient, nothing when it had several.
 */
function suppressedAddresses(message: FoundMessage, event: ProviderEvent): string[] {
  const sentTo = new Map<string, string>();
  for (const recipient of [...message.to, ...message.cc, ...message.bcc]) {
    const address = bareAddress(recipient);
    if (address) sentTo.set(address.toLowerCase(), address);
  }
  if (event.recipients?.length) {
    const named = event.recipients
      .map((r) => sentTo.get((bareAddress(r) ?? r).toLowerCase()))
      .filter((a): a is string => Boolean(a));
    if (!named.length)
      log.warn("provider event names recipients the message was not sent to", {
        messageId: message.id,
        code: event.code,
      });
    return [...new Set(named)];
  }
  if (sentTo.size === 1) return [...sentTo.values()];
  log.warn("provider event names no single recipient to suppress", {
    messageId: message.id,
    code: event.code,
    recipients: sentTo.size,
  });
  return [];
}
