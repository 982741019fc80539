/**
 * bench:retention's traffic: a day's mail is made by copying messages the service really accepted and delivered
 * (each with its recipient row, its timeline and its webhook events, deliveries and attempts, as the service wrote
 * them) under ids and times of the simulated day. Copying in SQL keeps 120 days of traffic within minutes; what is
 * measured — the rows a message leaves and what the hourly maintenance does with them on a moved clock — is the
 * service's own.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { getDb, type Db } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { createEndpoint } from "@/lib/flows/webhooks/manage-endpoints";
import { deliverDue, manualClock } from "@/lib/flows/webhooks/testing";
import { newId } from "@/lib/foundation/ids";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { POST as send } from "@/app/api/v1/email_messages/handlers";

/** A receipt of the size the starters render: about 3 KB of HTML, its text part and a dozen variables. */
function receiptHtml(): string {
  const rows = Array.from(
    { length: 8 },
    (_, i) =>
      `<tr><td style="padding:8px 0;font-family:Helvetica,Arial,sans-serif;font-size:14px;color:#333">{{ items[${i}].name }}</td>` +
      `<td style="padding:8px 0;text-align:right;font-family:Helvetica,Arial,sans-serif;font-size:14px">{{ items[${i}].price }}</td></tr>`,
  ).join("");
  return (
    `<!doctype html><html><body style="margin:0;background:#f4f4f5"><table width="100%" cellpadding="0" cellspacing="0">` +
    `<tr><td align="center"><table width="600" style="background:#fff;border-radius:8px;padding:32px">` +
    `<tr><td><h1 style="font-family:Helvetica,Arial,sans-serif;font-size:22px">Thanks for your order, {{ name }}</h1>` +
    `<p style="font-family:Helvetica,Arial,sans-serif;font-size:14px;color:#555">Order {{ order }} is confirmed and ships on {{ ship_date }}.</p>` +
    `<table width="100%">${rows}</table>` +
    `<p style="font-family:Helvetica,Arial,sans-serif;font-size:16px;font-weight:bold">Total {{ total }}</p>` +
    `<p><a href="https://shop.example.com/orders/{{ order }}" style="background:#111;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none">View your order</a></p>` +
    `</td></tr></table></td></tr></table></body></html>`
  );
}

function receiptVariables(i: number) {
  return {
    name: `Reader ${i}`,
    order: `A-${100_000 + i}`,
    ship_date: "2026-12-01",
    total: "€84.60",
    items: Array.from({ length: 8 }, (_, k) => ({ name: `Item ${k + 1}`, price: "€10.57" })),
  };
}

/** A receiver that answers every webhook 200 at once. */
async function startReceiver() {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(200).end("ok"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Messages sent through the API (a template with variables), delivered by the local provider, their webhooks fanned
 * out to one endpoint and delivered: the rows a day's mail copies. The local provider's own inbox copy is removed
 * (no real provider leaves one).
 */
export async function sendTemplateMessages(count: number): Promise<{ workspaceId: string; messageIds: string[] }> {
  const ws = await createTestWorkspace({ name: "Retention bench" });
  const receiver = await startReceiver();
  try {
    await createEndpoint(ws.workspace.id, { url: receiver.url }, "bench");
    const template = await ws.createTemplate({ subject: "Your order {{ order }}", bodyHtml: receiptHtml() });
    const messageIds: string[] = [];
    for (let i = 0; i < count; i++) {
      const sent = await callRoute(send, "/api/v1/email_messages", {
        authorization: ws.authorization,
        body: {
          templateId: template.id,
          to: `Reader ${i} <reader${i}@example.org>`,
          variables: receiptVariables(i),
          metadata: { orderId: `A-${100_000 + i}` },
        },
      });
      if (sent.status !== 201) throw new Error(`send answered ${sent.status}: ${sent.text}`);
      messageIds.push(sent.json.data.id);
      await deliverMessage({ workspaceId: ws.workspace.id, messageId: sent.json.data.id }, { attempt: 0 });
    }
    await deliverDue(ws.workspace.id, manualClock());
    const db = await getDb();
    await db.execute(sql`delete from local_inbox where workspace_id = ${ws.workspace.id}`);
    return { workspaceId: ws.workspace.id, messageIds };
  } finally {
    await receiver.close();
  }
}

interface CopiedTable {
  table: string;
  /** From `s` (the row copied) to the copied message `m` (clone_map: src, id, shift). */
  join: string;
  /** Column → expression; every other column is copied, timestamps moved by the day's shift. */
  overrides: Record<string, string>;
}

// A copied row's id: its prefix, the copy's time characters (so time-ordered indexes stay in order) and a hash of
// the original and the copy (so a delivery can name its copied event without a lookup table).
const copiedId = (column: string) =>
  `left(${column}, strpos(${column}, '_')) || substr(m.id, 4, 8) || substr(md5(${column} || m.id), 1, 8)`;

// The recipients' rows are not copied: the messages' insert trigger writes them, as for every message.
const COPIED: CopiedTable[] = [
  { table: "email_messages", join: "join clone_map m on m.src = s.id", overrides: { id: "m.id" } },
  {
    table: "email_message_logs",
    join: "join clone_map m on m.src = s.email_message_id",
    overrides: { id: copiedId("s.id"), email_message_id: "m.id" },
  },
  {
    table: "webhook_events",
    join: "join clone_map m on m.src = s.email_message_id",
    overrides: { id: copiedId("s.id"), email_message_id: "m.id" },
  },
  {
    table: "webhook_deliveries",
    join: "join clone_map m on m.src = s.email_message_id",
    overrides: {
      id: copiedId("s.id"),
      email_message_id: "m.id",
      event_id: copiedId("s.event_id"),
      event_seq: `(select e.seq from webhook_events e where e.id = ${copiedId("s.event_id")})`,
    },
  },
  {
    table: "webhook_attempts",
    join: "join webhook_deliveries d on d.id = s.delivery_id join clone_map m on m.src = d.email_message_id",
    overrides: { id: copiedId("s.id"), delivery_id: copiedId("s.delivery_id") },
  },
];

export const COPIED_TABLES = [...COPIED.map((copied) => copied.table), "email_message_recipients"];

interface Column {
  name: string;
  type: string;
}

async function copiedColumns(db: Db, table: string): Promise<Column[]> {
  return rowsOf(
    await db.execute(sql`
      select column_name as name, data_type as type from information_schema.columns
      where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER' and is_identity = 'NO'
        and coalesce(column_default, '') not like 'nextval(%'
      order by ordinal_position`),
  ) as unknown as Column[];
}

/** Where copies go: another workspace than the templates' (which is on legal hold, so its rows stay to be copied). */
export interface CopyTarget {
  workspaceId: string;
  endpointId: string;
}

/** Copies `perDay` messages (the templates in turn) into the day starting at `day`, spread evenly over it. */
export async function copyDay(templateIds: string[], target: CopyTarget, day: Date, perDay: number): Promise<void> {
  const db = await getDb();
  const step = 86_400_000 / perDay;
  const ids: string[] = [];
  const sources: string[] = [];
  const times: string[] = [];
  for (let i = 0; i < perDay; i++) {
    const at = new Date(day.getTime() + Math.floor((i + 0.5) * step));
    ids.push(newId("message", at));
    sources.push(templateIds[i % templateIds.length]);
    times.push(at.toISOString());
  }
  const columns = new Map<string, Column[]>();
  for (const copied of COPIED) columns.set(copied.table, await copiedColumns(db, copied.table));
  await db.transaction(async (tx) => {
    await tx.execute(sql`create temp table clone_map (src text, id text, shift interval) on commit drop`);
    await tx.execute(sql`
      insert into clone_map
      select c.src, c.id, c.at - e.created_at
      from unnest(string_to_array(${sources.join(",")}, ','), string_to_array(${ids.join(",")}, ','),
                  string_to_array(${times.join(",")}, ',')::timestamptz[]) as c(src, id, at)
      join email_messages e on e.id = c.src`);
    for (const copied of COPIED) {
      const list = columns.get(copied.table)!;
      const overrides: Record<string, string> = {
        workspace_id: `'${target.workspaceId}'`,
        endpoint_id: `'${target.endpointId}'`,
        ...copied.overrides,
      };
      const values = list.map(
        (column) =>
          overrides[column.name] ??
          (column.type === "timestamp with time zone" ? `s."${column.name}" + m.shift` : `s."${column.name}"`),
      );
      await tx.execute(
        sql.raw(
          `insert into ${copied.table} (${list.map((column) => `"${column.name}"`).join(", ")}) ` +
            `select ${values.join(", ")} from ${copied.table} s ${copied.join}`,
        ),
      );
    }
  });
}
