import "server-only";
import { getTableColumns, sql, type Query } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { contacts, emailMessages } from "@/db/schema/index";
import { compileOnce, executeCompiled } from "@/db/execute-prepared";
import { jsonRecords, jsonRowsInsert } from "@/db/insert-json-rows";
import { wellFormedJson } from "@/db/well-formed-json";
import { contactsJson, contactsUpsert } from "@/lib/domain/contacts/upsert-contacts";
import { deliveryJobsInsert, jobInsertOf, type DeliverMessageJob } from "@/lib/records/queue/queue";
import {
  creationEventsCtes,
  creationEventsJson,
  heldStatusSql,
  type CreationEvent,
} from "@/lib/records/timeline/creation-events";
import { heldSentenceSql, pausedWorkspacesSelect } from "@/lib/domain/workspaces/sending-state";
import type { EmailMessageRow } from "@/lib/domain/messages/get-message-or-throw";

export interface Acceptance {
  /** Complete rows; a PENDING one becomes PAUSED in a paused workspace. */
  messages: EmailMessageRow[];
  /** CREATED, RENDERED and the rest (lib/records/timeline/creation-events.ts). */
  events: CreationEvent[];
  contacts: Array<typeof contacts.$inferInsert>;
  /** Delivery jobs, written only for workspaces that are not paused. */
  jobs: DeliverMessageJob[];
}

const MESSAGE_KEYS = Object.keys(getTableColumns(emailMessages)) as Array<keyof EmailMessageRow>;
const m = emailMessages;

/**
 * Everything acceptMessages writes, as one data-modifying statement; returns the paused workspaces with their reason.
 *   with paused   as (the live messages' paused workspaces, FOR SHARE: sending-state.ts)
 *        messages as (insert the rows; PENDING → PAUSED where `paused` has the workspace)
 *        logs, outbox as (the events, PAUSED ones only where paused, and webhook rows: creation-events.ts)
 *        upserted as (upsert the contacts: contacts/upsert-contacts.ts)
 *        ins, notified as (pg-boss's own job insert, fed the jobs of workspaces not in `paused`: queue.ts)
 *   select the paused workspaces (one row at least, which also runs pg-boss's NOTIFY)
 * One JSON parameter per set, so the text never varies and runs prepared. No CTE reads another's table, only
 * `paused`, so their order does not matter.
 */
export async function writeAcceptance(tx: Tx, acceptance: Acceptance): Promise<Map<string, string | null>> {
  const live = [...new Set(acceptance.messages.filter((row) => !row.sandbox).map((row) => row.workspaceId))];
  const events = creationEventsJson(acceptance.events);
  const result = (await executeCompiled(tx, await acceptStatement(), {
    paused: JSON.stringify(live),
    messages: jsonRecords(emailMessages, MESSAGE_KEYS, acceptance.messages),
    logs: events.logs,
    outbox: events.outbox,
    contacts: contactsJson(acceptance.contacts),
    jobs: wellFormedJson(acceptance.jobs.map(jobInsertOf)),
  })) as unknown;
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
    id: string | null;
    reason: string | null;
  }>;
  return new Map(rows.filter((row) => row.id !== null).map((row) => [row.id!, row.reason]));
}

// Compiled once per shape of pg-boss's job insert (docs/benchmarks.md#the-accept-statement-compiled-once).
async function acceptStatement(): Promise<Query> {
  const inPaused = sql`workspace_id in (select id from paused)`;
  const delivery = await deliveryJobsInsert(
    sql`(select coalesce(json_agg(j.job order by j.n), '[]')::text from json_array_elements(${sql.placeholder("jobs")}::json) with ordinality as j(job, n)
      where j.job->'data'->>'workspaceId' not in (select id from paused))`,
  );
  const cached = compiled.get(delivery.shape);
  if (cached) return cached;
  const statement = compileOnce(sql`with paused as (${pausedWorkspacesSelect(param("paused"))}),
    messages as (${jsonRowsInsert(emailMessages, MESSAGE_KEYS, param("messages"), {
      computed: { [m.status.name]: heldStatusSql(inPaused) },
    })}),
    ${creationEventsCtes(
      { logs: param("logs"), outbox: param("outbox") },
      {
        message: sql`(select ${heldSentenceSql(sql`p.reason`)} from paused p where p.id = workspace_id)`,
        where: inPaused,
      },
    )},
    upserted as (${contactsUpsert(param("contacts"))}),
    ${delivery.ctes}
    -- One row at least, and \`notified\` in the output: PostgreSQL neither runs a plain CTE nothing reads
    -- nor computes a subquery column nothing reads, and pg-boss's NOTIFY is such a CTE.
    select ${delivery.touch} as notified, p.id, p.reason from (select 1) as one left join paused p on true`);
  compiled.set(delivery.shape, statement);
  return statement;
}

const compiled = new Map<string, Query>();
const param = (name: string) => sql`${sql.placeholder(name)}`;
