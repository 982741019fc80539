import "server-only";
import type { Tx } from "@/db/client";
import { newId } from "@/lib/foundation/ids";
import { subjectKey } from "@/lib/domain/inbound/subject-key";
import { selectInboundThread, selectOriginal, selectThreadBySubject, writeThread } from "./thread-statements";

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

/** How far back the subject-and-participants fallback looks for a conversation. */
export const THREAD_FALLBACK_DAYS = 30;
/** Our Message-IDs: `<em_…@sending-domain>` (lib/delivery/mime/build-mime.ts). */
const OUR_MESSAGE_ID = /^<?(em_[A-Za-z0-9]+)@[^>]*>?$/;

interface Found {
  originalMessageId: string | null;
  threadId: string | null;
  /** The row whose thread_id to set when it has none (the original message). */
  adopt: { messageId: string; participants: string[] } | null;
}

/**
 * The thread an inbound mail belongs to, in the storing transaction (docs/inbound.md#threads): the original message by
 * reply token, else by In-Reply-To then References (last first) naming one of our Message-IDs or an inbound mail of the
 * workspace; else a thread with the same normalised subject the sender took part in within 30 days; else a new one.
 */
export async function resolveThreadIn(
  tx: Tx,
  input: { workspaceId: string; parsed: ThreadingFields; replyToMessageId: string | null; at: Date },
): Promise<{ threadId: string; originalMessageId: string | null }> {
  const { workspaceId, parsed, at } = input;
  const participants = participantsOf(parsed);
  const key = subjectKey(parsed.subject);
  const found =
    (input.replyToMessageId ? await byOriginal(tx, workspaceId, input.replyToMessageId) : null) ??
    (await byReferences(tx, workspaceId, parsed)) ??
    (await bySubject(tx, workspaceId, key, parsed, at));
  const everyone = [...participants, ...(found?.adopt?.participants ?? [])];
  const threadId = found?.threadId ?? newId("inboundThread");
  await writeThread(tx, {
    workspaceId,
    threadId,
    participants: found?.threadId ? everyone : [...new Set(everyone)].sort(),
    at,
    adopt: found?.adopt?.messageId ?? null,
    create: found?.threadId ? null : { key },
  });
  return { threadId, originalMessageId: found?.originalMessageId ?? null };
}

function participantsOf(parsed: ThreadingFields): string[] {
  const addresses = [parsed.from, ...parsed.to, ...parsed.cc]
    .map((entry) => entry?.address?.trim().toLowerCase())
    .filter((address): address is string => !!address);
  return [...new Set(addresses)].sort();
}

async function byOriginal(tx: Tx, workspaceId: string, messageId: string): Promise<Found | null> {
  const row = await selectOriginal(tx, workspaceId, messageId);
  if (!row) return null;
  return {
    originalMessageId: row.id,
    threadId: row.threadId,
    adopt: row.threadId ? null : { messageId: row.id, participants: row.toAddresses },
  };
}

/**
 * In-Reply-To first, then References from the newest (last) to the oldest: the nearest known message gives the thread;
 * the nearest of OUR messages is the original (an inbound mail in between does not hide it).
 */
async function byReferences(tx: Tx, workspaceId: string, parsed: ThreadingFields): Promise<Found | null> {
  const ids = [parsed.inReplyTo, ...[...(parsed.references ?? [])].reverse()]
    .map((id) => id?.trim())
    .filter((id): id is string => !!id);
  let parentThreadId: string | null = null;
  for (const id of [...new Set(ids)].slice(0, 50)) {
    const ours = OUR_MESSAGE_ID.exec(id)?.[1];
    const original = ours ? await byOriginal(tx, workspaceId, ours) : null;
    if (original) {
      if (!parentThreadId) return original;
      return { ...original, threadId: parentThreadId, adopt: original.threadId ? null : original.adopt };
    }
    if (parentThreadId) continue;
    const bare = id.replace(/^<|>$/g, "");
    parentThreadId = await selectInboundThread(tx, workspaceId, bare);
  }
  return parentThreadId ? { originalMessageId: null, threadId: parentThreadId, adopt: null } : null;
}

/** The fallback: same normalised subject, the sender already in it, active within THREAD_FALLBACK_DAYS. */
async function bySubject(
  tx: Tx,
  workspaceId: string,
  key: string,
  parsed: ThreadingFields,
  at: Date,
): Promise<Found | null> {
  const sender = parsed.from?.address?.trim().toLowerCase();
  if (!key || !sender) return null;
  const since = new Date(at.getTime() - THREAD_FALLBACK_DAYS * 86_400_000);
  const row = await selectThreadBySubject(tx, { workspaceId, key, since, sender });
  return row ? { originalMessageId: null, threadId: row, adopt: null } : null;
}
