import "server-only";
import { sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { decodeRows } from "@/db/column-rows";
import { compileOnce, executeCompiled } from "@/db/execute-prepared";
import { emailMessages as m, inboundMessages as im, inboundThreads as t } from "@/db/schema";

// The statements of thread resolution, compiled once and run prepared: each inbound mail runs two or three of them, and
// Drizzle's builder cost more than the statements (docs/benchmarks.md, bench:inbound).

const p = (name: string) => sql`${sql.placeholder(name)}`;
/** A text[] from one JSON parameter. */
const textArray = (name: string) => sql`array(select jsonb_array_elements_text(${p(name)}::jsonb))`;
const atParam = sql`${p("at")}::timestamptz`;

/** A thread as the group's in-memory view needs it: its subject key and participants (null: no such thread). */
export interface ThreadFacts {
  id: string;
  key: string;
  participants: string[];
}

export interface OriginalRow {
  id: string;
  threadId: string | null;
  toAddresses: string[];
  thread: ThreadFacts | null;
}

const ORIGINAL_COLUMNS = {
  id: m.id,
  threadId: m.threadId,
  toAddresses: m.toAddresses,
  threadKey: t.subjectKey,
  threadParticipants: t.participants,
};
const originalById = compileOnce(
  sql`select ${m.id}, ${m.threadId}, ${m.toAddresses}, ${t.subjectKey}, ${t.participants} from ${m}
    left join ${t} on ${t.id} = ${m.threadId}
    where ${m.workspaceId} = ${p("workspaceId")} and ${m.id} = ${p("id")}`,
);

/** Our message by id, with its thread's facts. */
export async function selectOriginal(tx: Tx, workspaceId: string, id: string): Promise<OriginalRow | undefined> {
  const result = await executeCompiled(tx, originalById, { workspaceId, id });
  const row = decodeRows<{
    id: string;
    threadId: string | null;
    toAddresses: string[];
    threadKey: string | null;
    threadParticipants: string[] | null;
  }>(result, ORIGINAL_COLUMNS)[0];
  if (!row) return undefined;
  const thread = row.threadId ? facts(row.threadId, row.threadKey, row.threadParticipants) : null;
  return { id: row.id, threadId: row.threadId, toAddresses: row.toAddresses, thread };
}

function facts(id: string, key: string | null, participants: string[] | null): ThreadFacts | null {
  return key === null || participants === null ? null : { id, key, participants };
}

const THREAD_COLUMNS = { id: t.id, subjectKey: t.subjectKey, participants: t.participants };
const decodeThread = (result: unknown): ThreadFacts | null => {
  const row = decodeRows<{ id: string; subjectKey: string; participants: string[] }>(result, THREAD_COLUMNS)[0];
  return row ? { id: row.id, key: row.subjectKey, participants: row.participants } : null;
};

const threadOfInbound = compileOnce(
  sql`select ${t.id}, ${t.subjectKey}, ${t.participants} from ${im} join ${t} on ${t.id} = ${im.threadId}
    where ${im.workspaceId} = ${p("workspaceId")} and ${im.messageIdHeader} in (${p("bracketed")}, ${p("bare")}) limit 1`,
);

/** The thread of the workspace's inbound mail with this Message-ID (with or without its angle brackets). */
export async function selectInboundThread(tx: Tx, workspaceId: string, bare: string): Promise<ThreadFacts | null> {
  return decodeThread(await executeCompiled(tx, threadOfInbound, { workspaceId, bracketed: `<${bare}>`, bare }));
}

const threadBySubject = compileOnce(
  sql`select ${t.id}, ${t.subjectKey}, ${t.participants} from ${t} where ${t.workspaceId} = ${p("workspaceId")} and ${t.subjectKey} = ${p("key")}
    and ${t.lastMessageAt} >= ${p("since")}::timestamptz and ${t.participants} @> array[${p("sender")}::text]
    order by ${t.lastMessageAt} desc limit 1`,
);

export async function selectThreadBySubject(
  tx: Tx,
  input: { workspaceId: string; key: string; since: Date; sender: string },
): Promise<ThreadFacts | null> {
  return decodeThread(await executeCompiled(tx, threadBySubject, { ...input, since: input.since.toISOString() }));
}

/** The original takes the thread when it has none: in the thread's own statement (one round trip for both). */
const adopt = sql`adopted as (update ${m} set ${sql.identifier(m.threadId.name)} = ${p("threadId")}
  where ${m.workspaceId} = ${p("workspaceId")} and ${m.id} = ${p("adopt")} and ${m.threadId} is null)`;

const touchThread = compileOnce(
  sql`with ${adopt} update ${t} set
    ${sql.identifier(t.participants.name)} = (select coalesce(array_agg(distinct x order by x), '{}') from unnest(${t.participants} || ${textArray("participants")}) x),
    ${sql.identifier(t.lastMessageAt.name)} = greatest(${t.lastMessageAt}, ${atParam}),
    ${sql.identifier(t.updatedAt.name)} = ${atParam}
    where ${t.id} = ${p("threadId")} and ${t.workspaceId} = ${p("workspaceId")}`,
);

const createThread = compileOnce(
  sql`with ${adopt} insert into ${t} (${sql.join(
    [t.id, t.workspaceId, t.subjectKey, t.participants, t.lastMessageAt, t.createdAt, t.updatedAt].map((column) =>
      sql.identifier(column.name),
    ),
    sql`, `,
  )}) values (${p("threadId")}, ${p("workspaceId")}, ${p("key")}, ${textArray("participants")}, ${atParam}, ${atParam}, ${atParam})`,
);

export interface ThreadWrite {
  workspaceId: string;
  threadId: string;
  /** Sorted and distinct for a new thread; merged into an existing one's. */
  participants: string[];
  at: Date;
  /** The original message to set the thread on when it has none. */
  adopt: string | null;
}

/** Joins an existing thread (participants merged, last activity moved) or creates it, with the original's adoption. */
export async function writeThread(tx: Tx, write: ThreadWrite & { create: { key: string } | null }): Promise<void> {
  const values = {
    workspaceId: write.workspaceId,
    threadId: write.threadId,
    participants: JSON.stringify(write.participants),
    at: write.at.toISOString(),
    adopt: write.adopt,
  };
  if (write.create) await executeCompiled(tx, createThread, { ...values, key: write.create.key });
  else await executeCompiled(tx, touchThread, values);
}
