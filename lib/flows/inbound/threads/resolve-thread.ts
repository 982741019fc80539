import "server-only";
import type { Tx } from "@/db/client";
import { newId } from "@/lib/foundation/ids";
import { subjectKey } from "@/lib/domain/inbound/subject-key";
import { GroupThreads, type Lookup } from "./group-threads";
import {
  selectInboundThread,
  selectOriginal,
  selectThreadBySubject,
  writeThread,
  type OriginalRow,
  type ThreadFacts,
} from "./thread-statements";

/** The fields of a parsed mail threading reads (ParsedInbound has them all). */
export interface ThreadingFields {
  from: { address: string } | null;
  to: Array<{ address: string }>;
  cc: Array<{ address: string }>;
  subject: string | null;
  messageId?: string | null;
  inReplyTo?: string | null;
  references?: string[] | null;
}

export interface ThreadInput {
  workspaceId: string;
  parsed: ThreadingFields;
  replyToMessageId: string | null;
  at: Date;
}

/** How far back the subject-and-participants fallback looks for a conversation. */
export const THREAD_FALLBACK_DAYS = 30;
/** Our Message-IDs: `<em_…@sending-domain>` (lib/delivery/mime/build-mime.ts). */
const OUR_MESSAGE_ID = /^<?(em_[A-Za-z0-9]+)@[^>]*>?$/;

/**
 * The thread an inbound mail belongs to, in the storing transaction (docs/inbound.md#threads): the original message by
 * reply token, else by In-Reply-To then References (last first) naming one of our Message-IDs or an inbound mail of the
 * workspace; else a thread with the same normalised subject the sender took part in within 30 days; else a new one.
 */
export async function resolveThreadIn(
  tx: Tx,
  input: ThreadInput,
): Promise<{ threadId: string; originalMessageId: string | null }> {
  const { threads, written } = await resolveThreadsIn(tx, [input]);
  await written;
  return threads[0];
}

export interface ThreadsOfGroup {
  threads: Array<{ threadId: string; originalMessageId: string | null }>;
  /** The writes, issued in order and not awaited: the caller's next statements on the transaction run after them. */
  written: Promise<void>;
}

/**
 * A group's threads in a constant number of round trips rather than two or three per mail: every copy's reads at once
 * (pipelined on the transaction's connection), then each copy decided in turn against what the earlier copies of the
 * group wrote (GroupThreads: as if each had been resolved after the previous one's write), then every write at once,
 * run in order (docs/benchmarks.md, bench:inbound).
 */
export async function resolveThreadsIn(tx: Tx, inputs: ThreadInput[]): Promise<ThreadsOfGroup> {
  const lookups = await Promise.all(inputs.map((input) => lookUp(tx, input)));
  const group = new GroupThreads();
  const decided = inputs.map((input, index) => {
    const participants = participantsOf(input.parsed);
    return group.decide(
      { ...input, participants, key: subjectKey(input.parsed.subject), sender: senderOf(input.parsed) },
      lookups[index],
      () => newId("inboundThread"),
    );
  });
  const written = Promise.all(decided.map((entry) => writeThread(tx, entry.write))).then(() => undefined);
  return { threads: decided.map((entry) => entry.result), written };
}

/** What the database holds for a copy before its group writes anything: reads only. */
async function lookUp(tx: Tx, input: ThreadInput): Promise<Lookup> {
  const { workspaceId, parsed } = input;
  const byToken = input.replyToMessageId ? await selectOriginal(tx, workspaceId, input.replyToMessageId) : undefined;
  if (byToken) return { original: byToken, parent: null, subject: null };
  const found = await byReferences(tx, workspaceId, parsed);
  if (found.original || found.parent) return { ...found, subject: null };
  return { original: null, parent: null, subject: await bySubject(tx, input) };
}

function participantsOf(parsed: ThreadingFields): string[] {
  const addresses = [parsed.from, ...parsed.to, ...parsed.cc]
    .map((entry) => entry?.address?.trim().toLowerCase())
    .filter((address): address is string => !!address);
  return [...new Set(addresses)].sort();
}

function senderOf(parsed: ThreadingFields): string | null {
  return parsed.from?.address?.trim().toLowerCase() || null;
}

/**
 * In-Reply-To first, then References from the newest (last) to the oldest: the nearest known message gives the thread;
 * the nearest of OUR messages is the original (an inbound mail in between does not hide it).
 */
async function byReferences(
  tx: Tx,
  workspaceId: string,
  parsed: ThreadingFields,
): Promise<{ original: OriginalRow | null; parent: ThreadFacts | null }> {
  const ids = [parsed.inReplyTo, ...[...(parsed.references ?? [])].reverse()]
    .map((id) => id?.trim())
    .filter((id): id is string => !!id);
  let parent: ThreadFacts | null = null;
  for (const id of [...new Set(ids)].slice(0, 50)) {
    const ours = OUR_MESSAGE_ID.exec(id)?.[1];
    const original = ours ? await selectOriginal(tx, workspaceId, ours) : undefined;
    if (original) return { original, parent };
    if (parent) continue;
    parent = await selectInboundThread(tx, workspaceId, id.replace(/^<|>$/g, ""));
  }
  return { original: null, parent };
}

/** The fallback: same normalised subject, the sender already in it, active within THREAD_FALLBACK_DAYS. */
async function bySubject(tx: Tx, input: ThreadInput): Promise<ThreadFacts | null> {
  const sender = senderOf(input.parsed);
  const key = subjectKey(input.parsed.subject);
  if (!key || !sender) return null;
  const since = new Date(input.at.getTime() - THREAD_FALLBACK_DAYS * 86_400_000);
  return selectThreadBySubject(tx, { workspaceId: input.workspaceId, key, since, sender });
}
