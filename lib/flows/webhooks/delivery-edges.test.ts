import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { webhookAttempts, webhookDeliveries, webhookEvents } from "@/db/schema";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { recordEvent } from "@/lib/records/timeline/record-event";
import type { EventCode } from "@/lib/records/timeline/event-codes.shared";
import { attemptDeliveries } from "./attempt-deliveries";
import { createEndpoint } from "./manage-endpoints";
import { purgeWebhookLogs } from "./purge-webhook-logs";
import { rowsOf } from "./rows";
import { dayStart, daySuffix } from "@/lib/records/partitions/bounds";
import { maintainPartitions } from "@/lib/records/partitions/maintain-partitions";
import { sendWebhookRequest } from "./send-webhook-request";
import { deliverDue, fanOutEverything, manualClock } from "./testing";

let receiver: WebhookReceiver;
beforeAll(async () => {
  useSettings({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_ALLOW_HTTP: "true", WEBHOOK_ENDPOINT_CONCURRENCY: undefined });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  useSettings({
    WEBHOOKS_ALLOW_PRIVATE: undefined,
    WEBHOOKS_ALLOW_HTTP: undefined,
    WEBHOOK_ENDPOINT_CONCURRENCY: undefined,
  });
});

describe("a webhook request", () => {
  it("tells apart 200, 500 (first 4 KB kept), a timeout, a closed socket and a redirect (not followed)", async () => {
    const send = () => sendWebhookRequest(receiver.url, { "webhook-id": "evt_x" }, "{}", 500);
    receiver.mode = "ok";
    expect(await send()).toMatchObject({ ok: true, status: 200, body: "thanks", error: null });
    receiver.mode = "fail";
    const failed = await send();
    expect([failed.ok, failed.status, failed.body?.length]).toEqual([false, 500, 4096]);
    receiver.mode = "timeout";
    const slow = await send();
    expect([slow.ok, slow.status, slow.error]).toEqual([false, null, "timed out after 0.5 s"]);
    expect(slow.latencyMs).toBeGreaterThanOrEqual(450);
    receiver.mode = "close";
    expect(await send()).toMatchObject({ ok: false, status: null, error: "connection closed before an answer" });
    receiver.mode = "redirect";
    const before = receiver.received.length;
    const redirected = await send();
    expect([redirected.ok, redirected.status, redirected.error]).toEqual([
      false,
      302,
      "redirect to http://127.0.0.1:1/elsewhere not followed",
    ]);
    expect(receiver.received.length).toBe(before + 1);
    receiver.mode = "ok";
  });

  it("is refused at delivery time when the target became private (DNS or settings changed): logged as a failed attempt, nothing sent", async () => {
    const { workspace } = await createTestWorkspace();
    await createEndpoint(workspace.id, { url: receiver.url.replace("127.0.0.1", "localhost") }, "key_test");
    const message = await insertTestMessage(workspace.id);
    await recordEvent(await getDb(), {
      workspaceId: workspace.id,
      messageId: message,
      code: "EMAIL_MESSAGE_CREATED",
      message: "x",
    });
    useSettings({ WEBHOOKS_ALLOW_PRIVATE: "false" });
    const before = receiver.received.length;
    try {
      await deliverDue(workspace.id, manualClock());
    } finally {
      useSettings({ WEBHOOKS_ALLOW_PRIVATE: "true" });
    }
    expect(receiver.received.length).toBe(before);
    const [attempt] = await (
      await getDb()
    )
      .select()
      .from(webhookAttempts)
      .where(eq(webhookAttempts.workspaceId, workspace.id));
    expect(attempt.status).toBeNull();
    expect(attempt.error).toMatch(/refused target: localhost resolves to .*loopback/);
  });
});

describe("ordering and concurrency", () => {
  it("keeps each message's events in recorded order under concurrent workers, and holds at most WEBHOOK_ENDPOINT_CONCURRENCY requests per endpoint", async () => {
    useSettings({ WEBHOOK_ENDPOINT_CONCURRENCY: "3" });
    try {
      const { workspace } = await createTestWorkspace();
      await createEndpoint(workspace.id, { url: receiver.url }, "key_test");
      const codes: EventCode[] = [
        "EMAIL_MESSAGE_CREATED",
        "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
        "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
        "EMAIL_MESSAGE_OPEN_PROVIDER_EVENT",
        "EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT",
      ];
      const messages = await Promise.all(Array.from({ length: 8 }, () => insertTestMessage(workspace.id)));
      const db = await getDb();
      for (const code of codes)
        for (const message of messages)
          await recordEvent(db, { workspaceId: workspace.id, messageId: message, code, message: code });
      const clock = manualClock();
      await fanOutEverything(workspace.id, clock);
      receiver.received.length = 0;
      receiver.maxInFlight = 0;
      receiver.delayMs = 15;
      // Some first attempts fail, so later events of those messages must wait for the retries.
      let calls = 0;
      receiver.mode = () => (++calls % 7 === 0 ? "fail" : "ok");
      const deliveries = await db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.workspaceId, workspace.id));
      // Every job at once, in a shuffled order, split over 4 "workers" running side by side, several rounds.
      for (let round = 0; round < 40; round++) {
        const pending = deliveries
          .map((row) => ({ workspaceId: workspace.id, endpointId: row.endpointId, deliveryId: row.id }))
          .sort(() => Math.random() - 0.5);
        const quarter = Math.ceil(pending.length / 4);
        await Promise.all(
          [0, 1, 2, 3].map((i) => attemptDeliveries(pending.slice(i * quarter, (i + 1) * quarter), clock)),
        );
        const open = await db.$count(
          webhookDeliveries,
          sql`${webhookDeliveries.workspaceId} = ${workspace.id} and ${webhookDeliveries.status} <> 'succeeded'`,
        );
        if (open === 0) break;
        clock.advance(5 * 60_000);
      }
      receiver.delayMs = 0;
      receiver.mode = "ok";
      expect(
        await db.$count(
          webhookDeliveries,
          sql`${webhookDeliveries.workspaceId} = ${workspace.id} and ${webhookDeliveries.status} = 'succeeded'`,
        ),
      ).toBe(40);
      expect(receiver.maxInFlight).toBeLessThanOrEqual(3);
      expect(receiver.maxInFlight).toBeGreaterThan(1);
      const types = ["email.created", "email.sent", "email.delivered", "email.opened", "email.clicked"];
      for (const message of messages) {
        // The successful deliveries of a message, in arrival order (failed attempts were retried before anything later went).
        const arrived = receiver.received
          .map((request) => JSON.parse(request.body) as { type: string; data: { message: { id: string } } })
          .filter((payload) => payload.data.message.id === message)
          .map((payload) => payload.type);
        const firsts = arrived.filter((type, index) => arrived.indexOf(type) === index);
        expect(firsts).toEqual(types);
        // No event was sent before an earlier one of the same message had succeeded.
        for (let i = 1; i < arrived.length; i++)
          expect(types.indexOf(arrived[i])).toBeGreaterThanOrEqual(types.indexOf(arrived[i - 1]));
      }
    } finally {
      useSettings({ WEBHOOK_ENDPOINT_CONCURRENCY: undefined });
      receiver.mode = "ok";
      receiver.delayMs = 0;
    }
  });
});

describe("jobs at fan-out", () => {
  it("gives a later event of a message no job while an earlier one to the same endpoint waits, and enqueues it when that one settles", async () => {
    const { workspace } = await createTestWorkspace();
    await createEndpoint(workspace.id, { url: receiver.url }, "key_test");
    const [first, second] = [await insertTestMessage(workspace.id), await insertTestMessage(workspace.id)];
    const db = await getDb();
    const clock = manualClock();
    const record = (messageId: string, code: EventCode) =>
      recordEvent(db, { workspaceId: workspace.id, messageId, code, message: code });
    await record(first, "EMAIL_MESSAGE_CREATED");
    await record(first, "EMAIL_MESSAGE_SENT_PROVIDER_EVENT");
    await record(second, "EMAIL_MESSAGE_SENT_PROVIDER_EVENT");
    await fanOutEverything(workspace.id, clock);
    const deliveries = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.workspaceId, workspace.id));
    const label = (id: string) => {
      const delivery = deliveries.find((row) => row.id === id)!;
      return `${delivery.eventType}${delivery.emailMessageId === first ? "" : " (second)"}`;
    };
    const jobsOf = async () =>
      rowsOf<{ id: string }>(
        await db.execute(
          sql`select data->>'deliveryId' as id from pgboss.job where name = 'deliver-webhook' and data->>'workspaceId' = ${workspace.id}`,
        ),
      ).map((row) => label(row.id));
    // The first message's email.sent waits behind its email.created: no job yet. The second message's goes at once.
    expect((await jobsOf()).sort()).toEqual(["email.created", "email.sent (second)"]);
    const created = deliveries.find((delivery) => delivery.eventType === "email.created")!;
    await attemptDeliveries(
      [{ workspaceId: workspace.id, endpointId: created.endpointId, deliveryId: created.id }],
      clock,
    );
    expect((await jobsOf()).sort()).toEqual(["email.created", "email.sent", "email.sent (second)"]);
  });
});

describe("retention", () => {
  it("purges attempts, settled deliveries and feed events older than WEBHOOK_LOG_RETENTION_DAYS, keeping pending ones", async () => {
    const { workspace } = await createTestWorkspace();
    await createEndpoint(workspace.id, { url: receiver.url }, "key_test");
    const [done, waiting] = [await insertTestMessage(workspace.id), await insertTestMessage(workspace.id)];
    const db = await getDb();
    await recordEvent(db, { workspaceId: workspace.id, messageId: done, code: "EMAIL_MESSAGE_CREATED", message: "x" });
    await deliverDue(workspace.id, manualClock());
    receiver.mode = "fail";
    await recordEvent(db, {
      workspaceId: workspace.id,
      messageId: waiting,
      code: "EMAIL_MESSAGE_CREATED",
      message: "x",
    });
    await deliverDue(workspace.id, manualClock());
    receiver.mode = "ok";
    const statuses = await db
      .select({ status: webhookDeliveries.status })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.workspaceId, workspace.id));
    expect(statuses.map((row) => row.status).sort()).toEqual(["pending", "succeeded"]);
    await purgeWebhookLogs(new Date(Date.now() + 31 * 24 * 3600_000));
    const left = await db
      .select({ status: webhookDeliveries.status, eventId: webhookDeliveries.eventId })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.workspaceId, workspace.id));
    expect(left.map((row) => row.status)).toEqual(["pending"]);
    const events = await db
      .select({ id: webhookEvents.id })
      .from(webhookEvents)
      .where(eq(webhookEvents.workspaceId, workspace.id));
    expect(events.map((row) => row.id)).toEqual([left[0].eventId]);
    expect(await db.$count(webhookAttempts, inArray(webhookAttempts.workspaceId, [workspace.id]))).toBe(0);
  });
});

describe("the day partitions of the webhook log", () => {
  it("puts a delivery, fanned out later, and its retry a day after, in its event's day (docs/architecture.md#partitioned-by-day)", async () => {
    await maintainPartitions();
    const { workspace } = await createTestWorkspace();
    await createEndpoint(workspace.id, { url: receiver.url }, "key_test");
    const message = await insertTestMessage(workspace.id);
    // Past the legacy range the first run seals (two days ahead), within the week of days made ahead.
    const at = new Date(dayStart(new Date()).getTime() + 3 * 24 * 3600_000 + 23 * 3600_000);
    await recordEvent(await getDb(), {
      workspaceId: workspace.id,
      messageId: message,
      code: "EMAIL_MESSAGE_CREATED",
      message: "x",
      at,
    });
    const clock = manualClock(new Date(at.getTime() + 20 * 3600_000)); // the fan-out runs the next day
    receiver.mode = "fail";
    try {
      await deliverDue(workspace.id, clock);
    } finally {
      receiver.mode = "ok";
    }
    clock.advance(24 * 3600_000);
    await deliverDue(workspace.id, clock);
    const leaves = async (table: string, column: string) =>
      rowsOf<{ leaf: string }>(
        await (
          await getDb()
        ).execute(
          sql`select tableoid::regclass::text as leaf from ${sql.identifier(table)} where workspace_id = ${workspace.id}
              order by ${sql.identifier(column)}`,
        ),
      ).map((row) => row.leaf);
    const day = daySuffix(dayStart(at));
    expect(await leaves("webhook_events", "id")).toEqual([`webhook_events_${day}`]);
    expect(await leaves("webhook_deliveries", "id")).toEqual([`webhook_deliveries_${day}`]);
    expect(await leaves("webhook_attempts", "created_at")).toEqual([
      `webhook_attempts_${day}`,
      `webhook_attempts_${day}`,
    ]);
    const [delivery] = await (
      await getDb()
    )
      .select({ status: webhookDeliveries.status })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.workspaceId, workspace.id));
    expect(delivery.status).toBe("succeeded");
  });
});
