import type { OriginalRow, ThreadFacts, ThreadWrite } from "./thread-statements";

/** What the database held for one copy before its group wrote anything (resolve-thread.ts reads it). */
export interface Lookup {
  /** By reply token, else the nearest of our messages In-Reply-To or References name. */
  original: OriginalRow | null;
  /** The thread of an inbound mail named before that original. */
  parent: ThreadFacts | null;
  /** The subject fallback, read only when neither of the above exists. */
  subject: ThreadFacts | null;
}

export interface Copy {
  workspaceId: string;
  at: Date;
  /** Lower-cased, sorted, distinct. */
  participants: string[];
  key: string;
  sender: string | null;
}

interface Written {
  workspaceId: string;
  key: string | null;
  participants: string[];
}

/**
 * A group's threads as its earlier copies left them, so each copy is decided as if it had been resolved after the
 * previous one's write: the originals they adopted into a thread, and the threads they created or joined (subject key,
 * participants; their last activity is the group's time, so they come before any other thread for the subject
 * fallback, the latest written first). Whether an original or an inbound mail exists does not change within a group;
 * only these do.
 */
export class GroupThreads {
  private readonly adopted = new Map<string, string>();
  private readonly written = new Map<string, Written>();

  decide(
    copy: Copy,
    lookup: Lookup,
    newThreadId: () => string,
  ): {
    write: ThreadWrite & { create: { key: string } | null };
    result: { threadId: string; originalMessageId: string | null };
  } {
    const { original, parent } = lookup;
    const originalThread = original ? (this.adopted.get(original.id) ?? original.threadId) : null;
    const adopt = original && !originalThread ? { messageId: original.id, participants: original.toAddresses } : null;
    const found: ThreadFacts | null = parent
      ? parent
      : originalThread
        ? (original!.thread ?? { id: originalThread, key: "", participants: [] })
        : original
          ? null
          : this.bySubject(copy, lookup.subject);
    const everyone = [...copy.participants, ...(adopt?.participants ?? [])];
    const threadId = found?.id ?? newThreadId();
    const participants = found ? everyone : [...new Set(everyone)].sort();
    if (adopt) this.adopted.set(adopt.messageId, threadId);
    const before = found ? (this.written.get(found.id) ?? { ...found, workspaceId: copy.workspaceId }) : null;
    this.written.delete(threadId); // re-added last: the latest written comes first for the subject fallback
    this.written.set(threadId, {
      workspaceId: copy.workspaceId,
      key: before ? before.key || null : copy.key,
      participants: [...new Set([...(before?.participants ?? []), ...everyone])],
    });
    return {
      write: {
        workspaceId: copy.workspaceId,
        threadId,
        participants,
        at: copy.at,
        adopt: adopt?.messageId ?? null,
        create: found ? null : { key: copy.key },
      },
      result: { threadId, originalMessageId: original?.id ?? null },
    };
  }

  /** A thread of this group with the copy's subject and sender, else what the database had for it. */
  private bySubject(copy: Copy, fromDatabase: ThreadFacts | null): ThreadFacts | null {
    if (!copy.key || !copy.sender) return null;
    for (const [id, thread] of [...this.written].reverse()) {
      if (
        thread.workspaceId === copy.workspaceId &&
        thread.key === copy.key &&
        thread.participants.includes(copy.sender)
      ) {
        return { id, key: thread.key, participants: thread.participants };
      }
    }
    return fromDatabase;
  }
}
