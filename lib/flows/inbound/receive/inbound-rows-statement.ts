import "server-only";
import { getTableColumns, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { compileOnce, executeCompiled } from "@/db/execute-prepared";
import { rowsOf } from "@/db/column-rows";
import { jsonRecords } from "@/db/insert-json-rows";
import { inboundDedupeKeys as k, inboundMessageRaw as r, inboundMessages } from "@/db/schema";

export type InboundRow = Required<Pick<typeof inboundMessages.$inferInsert, (typeof INBOUND_KEYS)[number]>>;

/** The columns the storing path sets; the rest keep their defaults (a JSON null would override them). */
export const INBOUND_KEYS = [
  "id",
  "workspaceId",
  "inboundDomainId",
  "routeId",
  "threadId",
  "originalMessageId",
  "status",
  "quarantineReason",
  "recipient",
  "mailboxHash",
  "envelopeFrom",
  "envelopeTo",
  "remoteIp",
  "helo",
  "fromAddress",
  "fromName",
  "to",
  "cc",
  "replyTo",
  "subject",
  "sentAt",
  "messageIdHeader",
  "inReplyTo",
  "references",
  "textBody",
  "htmlBody",
  "strippedText",
  "strippedSignature",
  "headers",
  "attachments",
  "sizeBytes",
  "spf",
  "dkim",
  "dmarc",
  "arc",
  "authDetails",
  "spamStatus",
  "spamScore",
  "dedupeKey",
  "createdAt",
  "updatedAt",
] as const satisfies ReadonlyArray<keyof typeof inboundMessages.$inferInsert>;

const name = (column: { name: string }) => sql.identifier(column.name);
const param = (key: string) => sql`${sql.placeholder(key)}`;

const columns = (() => {
  const all = getTableColumns(inboundMessages) as Record<string, { name: string }>;
  return sql.join(
    INBOUND_KEYS.map((key) => sql.identifier(all[key].name)),
    sql`, `,
  );
})();

/**
 * The rows and their raw bytes in one statement (data-modifying CTEs), their text fixed so it runs prepared: each set is
 * one JSON parameter (parsed once), the bytes base64 in theirs. Each row's (workspace, dedupe key) goes first into
 * inbound_dedupe_keys, unique across every day partition (migration 0029): a row whose key is taken is skipped with its
 * bytes, as a conflict on the mail itself skipped it before.
 */
const statement = compileOnce(sql`with source as materialized (
    select * from json_populate_recordset(null::${inboundMessages}, ${param("rows")}::json)
  ), keyed as (
    insert into ${k} (${name(k.workspaceId)}, ${name(k.dedupeKey)}, ${name(k.inboundMessageId)}, ${name(k.createdAt)})
    select s.workspace_id, s.dedupe_key, s.id, s.created_at from source s
    on conflict do nothing
    returning ${name(k.inboundMessageId)} as id
  ), inserted as (
    insert into ${inboundMessages} (${columns})
    select ${columns} from source where id in (select id from keyed)
    returning ${name(inboundMessages.id)} as id, ${name(inboundMessages.workspaceId)} as workspace_id
  ), raw as (
    insert into ${r} (${name(r.inboundMessageId)}, ${name(r.workspaceId)}, ${name(r.raw)})
    select i.id, i.workspace_id, decode(b.raw, 'base64')
    from inserted i join json_to_recordset(${param("raws")}::json) as b(id text, raw text) on b.id = i.id
  )
  select id from inserted`);

/** Inserts the rows with their raw bytes (raws[i] is rows[i]'s); answers the ids stored, a taken dedupe key's missing. */
export async function insertInboundRows(tx: Tx, rows: InboundRow[], raws: Buffer[]): Promise<Set<string>> {
  const result = await executeCompiled(tx, statement, {
    rows: jsonRecords(inboundMessages, [...INBOUND_KEYS], rows),
    // base64 is ASCII: no lone surrogate for wellFormedJson to mend.
    raws: JSON.stringify(rows.map((row, index) => ({ id: row.id, raw: raws[index].toString("base64") }))),
  });
  return new Set(rowsOf(result).map((row) => row.id as string));
}
