import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents, workspaces } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { deliveryIdOf } from "@/lib/flows/webhooks/fan-out";
import { getAttachmentStorage, storageKey } from "@/lib/domain/attachments/storage";
import { releaseDayAttachments } from "@/lib/domain/inbound/release-day-attachments";
import { insertTestInboundMessage } from "@/lib/domain/inbound/testing";
import { setClock } from "@/lib/foundation/clock";
import { useSettings } from "@/lib/testing/settings";
import { createTestWorkspace, insertTestMessage, readMessageState } from "@/lib/testing/fixtures";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { addDays, dayStart, daySuffix, idBound } from "./bounds";
import { AHEAD_DAYS } from "./ensure-partitions";
import { MESSAGE_FAMILY } from "./family";
import { listPartitions } from "./list-partitions";
import { maintainPartitions } from "./maintain-partitions";

const start = new Date();
const today = dayStart(start);
afterEach(() => {
  setClock(null);
  useSettings({ METADATA_RETENTION_DAYS: undefined, RETENTION_DAYS: undefined });
});

async function query(text: string) {
  return rowsOf(await (await getDb()).execute(sql.raw(text)));
}

/** A sent message of `day` (days after today) with a timeline event and its recipient row. */
async function messageOn(workspaceId: string, day: number, status: "SUCCEEDED" | "PENDING" = "SUCCEEDED") {
  const createdAt = new Date(addDays(today, day).getTime() + 3600_000);
  const id = await insertTestMessage(workspaceId, { createdAt, status });
  // A PENDING message keeps waiting: its event is one that moves no status.
  await recordEvent(await getDb(), {
    workspaceId,
    messageId: id,
    code: status === "PENDING" ? "EMAIL_MESSAGE_RENDERED" : "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
    message: "Recorded.",
    at: createdAt,
  });
  return id;
}

const partitionOf = async (table: string, column: string, id: string) =>
  (await query(`select tableoid::regclass::text as leaf from ${table} where ${column} = '${id}'`)).map(
    (row) => row.leaf,
  );

describe("partitions of the messages family", { timeout: 120_000 }, () => {
  it("seals the legacy tables as the range below the cut, then creates the days ahead for every table", async () => {
    const { workspace } = await createTestWorkspace();
    const before = await insertTestMessage(workspace.id, { status: "SUCCEEDED" });
    const result = await maintainPartitions({ now: start });
    expect(result.sealed).toBe(true);
    const cut = addDays(today, 2);
    const days = Array.from({ length: AHEAD_DAYS - 1 }, (_, i) => daySuffix(addDays(cut, i)));
    expect(result.created).toEqual([
      ...days.map((day) => `email_messages_${day}`),
      ...days.map((day) => `webhook_events_${day}`),
      ...days.map((day) => `activity_logs_${day}`),
      ...days.map((day) => `inbound_messages_${day}`),
    ]);
    const partitions = await listPartitions(await getDb(), MESSAGE_FAMILY);
    expect(partitions[0]).toMatchObject({ name: "email_messages_legacy", from: null, to: idBound("em_", cut) });
    expect(partitions.at(-1)).toMatchObject({ name: "email_messages_default", isDefault: true });
    for (const table of MESSAGE_FAMILY.tables) {
      const leaves = await query(
        `select count(*)::int as n from pg_inherits where inhparent = '${table.name}'::regclass`,
      );
      expect(leaves[0].n, table.name).toBe(partitions.length);
    }
    expect((await readMessageState(before)).message.id).toBe(before);
    expect(await maintainPartitions({ now: start })).toEqual({ sealed: false, created: [], dropped: [] });
  });

  it("puts a day's message, timeline and recipients in that day's partitions; a lookup by id reads one", async () => {
    await maintainPartitions({ now: start });
    const { workspace } = await createTestWorkspace();
    const id = await messageOn(workspace.id, 3);
    const day = daySuffix(addDays(today, 3));
    expect(await partitionOf("email_messages", "id", id)).toEqual([`email_messages_${day}`]);
    expect(await partitionOf("email_message_logs", "email_message_id", id)).toEqual([`email_message_logs_${day}`]);
    expect(await partitionOf("email_message_recipients", "email_message_id", id)).toEqual([
      `email_message_recipients_${day}`,
    ]);
    const plan = (await query(`explain select * from email_messages where id = '${id}'`)).map(
      (row) => row["QUERY PLAN"],
    );
    expect(plan.join("\n")).toContain(`email_messages_${day}`);
    expect(plan.join("\n")).not.toMatch(/Append/);
    // The keys are each day's own: a log of a message that is not there is refused, and a deleted message takes its
    // timeline along.
    await expect(
      query(`insert into email_message_logs (id, workspace_id, email_message_id, code, message)
             values ('log_x', '${workspace.id}', '${idBound("em_", addDays(today, 3))}zzzzzzzz', 'X', 'x')`),
    ).rejects.toThrow();
    await query(`delete from email_messages where id = '${id}'`);
    expect(await partitionOf("email_message_logs", "email_message_id", id)).toEqual([]);
    expect(await partitionOf("email_message_recipients", "email_message_id", id)).toEqual([]);
  });

  it("never fails an insert: a message beyond the days made falls back to the default partition", async () => {
    await maintainPartitions({ now: start });
    const { workspace } = await createTestWorkspace();
    const id = await messageOn(workspace.id, AHEAD_DAYS + 30);
    expect(await partitionOf("email_messages", "id", id)).toEqual(["email_messages_default"]);
    expect(await partitionOf("email_message_logs", "email_message_id", id)).toEqual(["email_message_logs_default"]);
  });

  it("drops a day once past every window; keeps a day with a held workspace's rows or a waiting message, and the straddling day", async () => {
    await maintainPartitions({ now: start });
    const { workspace: a } = await createTestWorkspace();
    const { workspace: held } = await createTestWorkspace();
    const old = await messageOn(a.id, 3);
    const kept = await messageOn(held.id, 4);
    const waiting = await messageOn(a.id, 5, "PENDING");
    const straddling = await messageOn(a.id, 6);
    await (await getDb()).update(workspaces).set({ legalHold: true }).where(eq(workspaces.id, held.id));
    // Day 13 and a 7-day window: days ending by day 6 are past it; day 6 ends on day 7, so it straddles the cutoff.
    setClock(() => new Date(addDays(today, 13).getTime() + 3600_000));
    // Bodies' window too: a metadata window is never shorter than the body window (docs/retention.md#windows).
    useSettings({ METADATA_RETENTION_DAYS: "372", RETENTION_DAYS: "7" });
    expect((await maintainPartitions()).dropped).toEqual([]);
    useSettings({ METADATA_RETENTION_DAYS: "7" });
    await (await getDb()).update(workspaces).set({ metadataRetentionDays: 30 }).where(eq(workspaces.id, a.id));
    expect((await maintainPartitions()).dropped).toEqual([]);
    await (await getDb()).update(workspaces).set({ metadataRetentionDays: null }).where(eq(workspaces.id, a.id));
    const result = await maintainPartitions();
    expect(result.dropped).toContain("email_messages_legacy");
    expect(result.dropped).toContain(`email_messages_${daySuffix(addDays(today, 3))}`);
    expect(result.dropped).not.toContain(`email_messages_${daySuffix(addDays(today, 4))}`);
    expect(result.dropped).not.toContain(`email_messages_${daySuffix(addDays(today, 5))}`);
    expect((await readMessageState(waiting)).message.id).toBe(waiting);
    expect(result.dropped).not.toContain(`email_messages_${daySuffix(addDays(today, 6))}`);
    const names = (await listPartitions(await getDb(), MESSAGE_FAMILY)).map((partition) => partition.name);
    expect(names).toContain(`email_messages_${daySuffix(addDays(today, 13 + AHEAD_DAYS))}`);
    expect((await readMessageState(old)).message).toBeUndefined();
    expect((await readMessageState(old)).events).toEqual([]);
    expect((await readMessageState(kept)).events).toHaveLength(1);
    expect((await readMessageState(straddling)).message.id).toBe(straddling);
    const leftovers = await query(
      `select relname from pg_class where (relname like '%${daySuffix(addDays(today, 3))}%' or relname like '%_legacy')
        and relname ~ '^(email_|local_inbox)'`, // the other families keep their own windows
    );
    expect(leftovers).toEqual([]);
  });

  it("drops a day that a stopped run detached but did not drop", async () => {
    // A day no other test drops: made here, whatever ran before.
    const later = addDays(start, 30);
    await maintainPartitions({ now: later });
    const { workspace } = await createTestWorkspace();
    const old = await messageOn(workspace.id, 30);
    const suffix = daySuffix(addDays(today, 30));
    // What a run leaves when it stops between detaching a day and dropping it.
    for (const table of MESSAGE_FAMILY.tables)
      await query(`alter table "${table.name}" detach partition "${table.name}_${suffix}"`);
    expect((await readMessageState(old)).message).toBeUndefined();
    const detached = `select relname from pg_class where relname like '%${suffix}' and relkind = 'r' and not relispartition order by 1`;
    expect((await query(detached)).map((row) => row.relname)).toEqual(
      MESSAGE_FAMILY.tables.map((table) => `${table.name}_${suffix}`).sort(),
    );
    // A day ahead of any window: the next run drops what is detached, whatever the windows.
    await maintainPartitions({ now: later });
    expect(await query(detached)).toEqual([]);
  });
});

/** A webhook event of `day` (days after today), its delivery (its id made by the fan-out's rule) and one attempt. */
async function webhookOn(workspaceId: string, day: number, status: "succeeded" | "pending" = "succeeded") {
  const at = new Date(addDays(today, day).getTime() + 3600_000);
  const db = await getDb();
  const endpointId = newId("webhookEndpoint");
  await db
    .insert(webhookEndpoints)
    .values({ id: endpointId, workspaceId, url: "https://hooks.example.org", secretEncrypted: "x" });
  const eventId = newId("webhookEvent", at);
  const [event] = await db
    .insert(webhookEvents)
    .values({ id: eventId, workspaceId, type: "email.sent", createdAt: at })
    .returning({ seq: webhookEvents.seq });
  const deliveryId = deliveryIdOf(eventId);
  await db.insert(webhookDeliveries).values({
    id: deliveryId,
    workspaceId,
    endpointId,
    eventId,
    eventSeq: event.seq,
    eventType: "email.sent",
    status,
    createdAt: at,
  });
  // An attempt a day later (a retry) still lies in its delivery's day.
  await db.insert(webhookAttempts).values({
    id: newId("webhookAttempt", addDays(at, 1)),
    workspaceId,
    deliveryId,
    endpointId,
    attempt: 1,
    status: 500,
    latencyMs: 5,
    createdAt: addDays(at, 1),
  });
  return { eventId, deliveryId };
}

describe("partitions of the webhook log, the API request log and inbound mail", { timeout: 120_000 }, () => {
  afterEach(() =>
    useSettings({
      WEBHOOK_LOG_RETENTION_DAYS: undefined,
      ACTIVITY_RETENTION_DAYS: undefined,
      METADATA_RETENTION_DAYS: undefined,
      RETENTION_DAYS: undefined,
    }),
  );

  it("puts an event, its delivery and its attempts in the event's day; drops the day past the webhook log's window unless a delivery waits", async () => {
    const later = addDays(start, 40); // days no other test drops or makes
    await maintainPartitions({ now: later });
    const { workspace } = await createTestWorkspace();
    const old = await webhookOn(workspace.id, 41);
    const waiting = await webhookOn(workspace.id, 42, "pending");
    const recent = await webhookOn(workspace.id, 44);
    const suffix = (day: number) => daySuffix(addDays(today, day));
    expect(await partitionOf("webhook_events", "id", old.eventId)).toEqual([`webhook_events_${suffix(41)}`]);
    expect(await partitionOf("webhook_deliveries", "id", old.deliveryId)).toEqual([`webhook_deliveries_${suffix(41)}`]);
    expect(await partitionOf("webhook_attempts", "delivery_id", old.deliveryId)).toEqual([
      `webhook_attempts_${suffix(41)}`,
    ]);
    // A 3-day webhook log at day 46: days ending by day 43 are past it; the messages' longer window does not keep them.
    useSettings({ WEBHOOK_LOG_RETENTION_DAYS: "3" });
    const result = await maintainPartitions({ now: new Date(addDays(today, 46).getTime() + 3600_000) });
    expect(result.dropped).toContain(`webhook_events_${suffix(41)}`);
    expect(result.dropped).not.toContain(`webhook_events_${suffix(42)}`);
    expect(result.dropped).not.toContain(`webhook_events_${suffix(44)}`);
    expect(result.dropped.filter((name) => name.startsWith("email_messages_"))).toEqual([]);
    expect(await partitionOf("webhook_events", "id", old.eventId)).toEqual([]);
    expect(await partitionOf("webhook_attempts", "delivery_id", old.deliveryId)).toEqual([]);
    expect(await partitionOf("webhook_deliveries", "id", waiting.deliveryId)).toHaveLength(1);
    expect(await partitionOf("webhook_deliveries", "id", recent.deliveryId)).toHaveLength(1);
    const plan = (await query(`explain select * from webhook_deliveries where id = '${recent.deliveryId}'`)).map(
      (row) => row["QUERY PLAN"],
    );
    expect(plan.join("\n")).toContain(`webhook_deliveries_${suffix(44)}`);
    expect(plan.join("\n")).not.toMatch(/Append/);
  });

  it("drops a day of the API request log past ACTIVITY_RETENTION_DAYS, unless a workspace on legal hold has rows in it", async () => {
    const later = addDays(start, 50); // days no other test drops or makes
    await maintainPartitions({ now: later });
    const { workspace } = await createTestWorkspace();
    const { workspace: held } = await createTestWorkspace();
    await (await getDb()).update(workspaces).set({ legalHold: true }).where(eq(workspaces.id, held.id));
    const logged = async (workspaceId: string, day: number) => {
      const id = newId("activity", new Date(addDays(today, day).getTime() + 3600_000));
      await query(`insert into activity_logs (id, workspace_id, method, path, status, duration_ms)
        values ('${id}', '${workspaceId}', 'GET', '/v1/email_messages', 200, 3)`);
      return id;
    };
    const old = await logged(workspace.id, 51);
    const kept = await logged(held.id, 52);
    const recent = await logged(workspace.id, 54);
    expect(await partitionOf("activity_logs", "id", old)).toEqual([`activity_logs_${daySuffix(addDays(today, 51))}`]);
    useSettings({ ACTIVITY_RETENTION_DAYS: "2" });
    const result = await maintainPartitions({ now: new Date(addDays(today, 55).getTime() + 3600_000) });
    expect(result.dropped).toContain(`activity_logs_${daySuffix(addDays(today, 51))}`);
    expect(result.dropped).not.toContain(`activity_logs_${daySuffix(addDays(today, 52))}`);
    expect(await partitionOf("activity_logs", "id", old)).toEqual([]);
    expect(await partitionOf("activity_logs", "id", kept)).toHaveLength(1);
    expect(await partitionOf("activity_logs", "id", recent)).toHaveLength(1);
  });

  it("drops a day of inbound mail past the metadata window with its raw bytes, and first releases its attachments' bytes", async () => {
    const later = addDays(start, 60); // days no other test drops or makes
    await maintainPartitions({ now: later });
    const { workspace } = await createTestWorkspace();
    const at = new Date(addDays(today, 61).getTime() + 3600_000);
    const key = storageKey(workspace.id, newId("inboundAttachment", at));
    const storage = await getAttachmentStorage();
    await storage.write(key, Buffer.from("the attachment"), "text/plain");
    const attachment = { id: "inatt_x", filename: "a.txt", contentType: "text/plain", size: 14, contentId: null };
    const mail = await insertTestInboundMessage(workspace.id, {
      id: newId("inboundMessage", at),
      createdAt: at,
      attachments: [{ ...attachment, inline: false, storageKey: key }],
    });
    await query(`insert into inbound_message_raw (inbound_message_id, workspace_id, raw)
      values ('${mail.id}', '${workspace.id}', 'Subject: x')`);
    const recent = await insertTestInboundMessage(workspace.id, {
      id: newId("inboundMessage", addDays(at, 3)),
      createdAt: addDays(at, 3),
    });
    const suffix = daySuffix(addDays(today, 61));
    expect(await partitionOf("inbound_messages", "id", mail.id)).toEqual([`inbound_messages_${suffix}`]);
    expect(await partitionOf("inbound_message_raw", "inbound_message_id", mail.id)).toEqual([
      `inbound_message_raw_${suffix}`,
    ]);
    useSettings({ METADATA_RETENTION_DAYS: "7", RETENTION_DAYS: "1" });
    const result = await maintainPartitions({
      now: new Date(addDays(today, 70).getTime() + 3600_000),
      releaseOutside: releaseDayAttachments,
    });
    expect(result.dropped).toContain(`inbound_messages_${suffix}`);
    expect(await partitionOf("inbound_messages", "id", mail.id)).toEqual([]);
    expect(await partitionOf("inbound_message_raw", "inbound_message_id", mail.id)).toEqual([]);
    expect(await storage.stat(key)).toBeNull();
    expect(await partitionOf("inbound_messages", "id", recent.id)).toHaveLength(1);
  });
});
