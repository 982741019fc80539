import { and, asc, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages, webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "@/db/schema";
import { createUser } from "@/lib/domain/users/create-user";
import { SYSTEM_WORKSPACE_ID } from "@/lib/domain/workspaces/system-workspace";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { recordEvent, recordSentEvents } from "@/lib/records/timeline/record-event";
import type { EventCode } from "@/lib/records/timeline/event-codes.shared";
import { createEndpoint, rotateEndpointSecret, updateEndpoint } from "./manage-endpoints";
import { replayEndpoint } from "./replay";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "./retry-schedule";
import { manualClock, deliverDue } from "./testing";

let receiver: WebhookReceiver;

beforeAll(async () => {
  useSettings({
    WEBHOOKS_ALLOW_PRIVATE: "true",
    WEBHOOKS_ALLOW_HTTP: "true",
    WEBHOOK_DISABLE_AFTER_FAILURES: undefined,
  });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  useSettings({
    WEBHOOKS_ALLOW_PRIVATE: undefined,
    WEBHOOKS_ALLOW_HTTP: undefined,
    WEBHOOK_DISABLE_AFTER_FAILURES: undefined,
  });
});
afterEach(() => {
  receiver.received.length = 0;
  receiver.mode = "ok";
  receiver.delayMs = 0;
});

async function setUp(options: { eventTypes?: string[] } = {}) {
  const { workspace } = await createTestWorkspace();
  const { endpoint, secret } = await createEndpoint(
    workspace.id,
    { url: receiver.url, description: "test", eventTypes: options.eventTypes },
    "key_test",
  );
  return { workspaceId: workspace.id, endpoint, secret };
}

async function record(
  workspaceId: string,
  messageId: string,
  code: EventCode,
  extra: { bot?: boolean; at?: Date } = {},
) {
  await recordEvent(await getDb(), { workspaceId, messageId, code, message: code, ...extra });
}

/** What the receiver got, each verified with the standardwebhooks library as a receiver would. */
function verifiedPayloads(secret: string) {
  return receiver.received.map(
    (request) =>
      new Webhook(secret).verify(request.body, request.headers) as {
        id: string;
        type: string;
        data: { message: { id: string } | null; event: { code: string; bot: boolean } | null };
      },
  );
}

describe("outbound webhooks", () => {
  it("emits every mapped event of a live message, signed, in recorded order; sandbox messages and timeline-only codes send none", async () => {
    const { workspaceId, secret } = await setUp();
    const live = await insertTestMessage(workspaceId);
    const sandbox = await insertTestMessage(workspaceId, { sandbox: true, source: "SANDBOX_API" });
    const t0 = Date.now();
    await record(workspaceId, live, "EMAIL_MESSAGE_CREATED", { at: new Date(t0) });
    await record(workspaceId, live, "EMAIL_MESSAGE_RENDERED", { at: new Date(t0) });
    await recordSentEvents(await getDb(), [
      {
        workspaceId,
        messageId: live,
        referenceId: "ref-1",
        at: new Date(t0 + 1),
        message: "Sent.",
        providerEventId: "local:sent",
        details: {},
      },
    ]);
    await record(workspaceId, live, "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT", { at: new Date(t0 + 2) });
    await record(workspaceId, live, "EMAIL_MESSAGE_OPEN_PROVIDER_EVENT", { at: new Date(t0 + 3), bot: true });
    await record(workspaceId, sandbox, "EMAIL_MESSAGE_CREATED");
    await record(workspaceId, sandbox, "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT");

    const events = await (
      await getDb()
    )
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.workspaceId, workspaceId))
      .orderBy(asc(webhookEvents.seq));
    expect(events.map((event) => [event.type, event.emailMessageId])).toEqual([
      ["email.created", live],
      ["email.sent", live],
      ["email.delivered", live],
      ["email.opened", live],
    ]);

    await deliverDue(workspaceId, manualClock());
    const payloads = verifiedPayloads(secret);
    expect(payloads.map((payload) => payload.type)).toEqual([
      "email.created",
      "email.sent",
      "email.delivered",
      "email.opened",
    ]);
    expect(payloads.map((payload) => payload.id)).toEqual(events.map((event) => event.id));
    expect(receiver.received.map((request) => request.headers["webhook-id"])).toEqual(events.map((event) => event.id));
    expect(payloads.every((payload) => payload.data.message?.id === live)).toBe(true);
    expect(payloads[1].data.event?.code).toBe("EMAIL_MESSAGE_SENT_PROVIDER_EVENT");
    expect(payloads[3].data.event?.bot).toBe(true);
    expect(payloads[0].data.event?.bot).toBe(false);
    // The message as GET shows it: the 2xx settled every delivery, each with one logged attempt.
    const deliveries = await (
      await getDb()
    )
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.workspaceId, workspaceId));
    expect(deliveries.map((delivery) => [delivery.status, delivery.attempts, delivery.lastStatus])).toEqual(
      Array(4).fill(["succeeded", 1, 200]),
    );
  });

  it("sends only the types an endpoint subscribes to", async () => {
    const { workspaceId, secret } = await setUp({ eventTypes: ["email.bounced"] });
    const message = await insertTestMessage(workspaceId);
    await record(workspaceId, message, "EMAIL_MESSAGE_CREATED");
    await record(workspaceId, message, "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT");
    await deliverDue(workspaceId, manualClock());
    expect(verifiedPayloads(secret).map((payload) => payload.type)).toEqual(["email.bounced"]);
  });

  it("retries on the schedule (injectable clock), holds the message's later events meanwhile, then fails the delivery for good", async () => {
    const { workspaceId, endpoint } = await setUp();
    const message = await insertTestMessage(workspaceId);
    await record(workspaceId, message, "EMAIL_MESSAGE_CREATED");
    await record(workspaceId, message, "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT");
    receiver.mode = (request) => (JSON.parse(request.body).type === "email.created" ? "fail" : "ok");
    const clock = manualClock();
    const start = clock.now().getTime();
    await deliverDue(workspaceId, clock);
    for (const delay of RETRY_DELAYS_MS) {
      // Not due a millisecond early, due at the schedule's time.
      clock.advance(delay - 1);
      await deliverDue(workspaceId, clock);
      clock.advance(1);
      await deliverDue(workspaceId, clock);
    }
    const db = await getDb();
    const [created, delivered] = await db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.id))
      .orderBy(asc(webhookDeliveries.eventSeq));
    expect(created.status).toBe("failed");
    expect(created.attempts).toBe(MAX_ATTEMPTS);
    const attempts = await db
      .select()
      .from(webhookAttempts)
      .where(eq(webhookAttempts.deliveryId, created.id))
      .orderBy(asc(webhookAttempts.attempt));
    let expected = start;
    expect(attempts.map((attempt) => attempt.createdAt.getTime() - start)).toEqual(
      [0, ...RETRY_DELAYS_MS].map((delay) => (expected += delay) - start),
    );
    expect(attempts.every((attempt) => attempt.status === 500 && attempt.responseBody!.length === 4096)).toBe(true);
    // The later event waited until the earlier one was settled, then went out.
    expect(delivered.status).toBe("succeeded");
    const types = receiver.received.map((request) => JSON.parse(request.body).type);
    expect(types.indexOf("email.delivered")).toBe(types.length - 1);
    expect(types.filter((type) => type === "email.created")).toHaveLength(MAX_ATTEMPTS);
  });

  it("rotation signs with both secrets for 24 hours, then with the new one only", async () => {
    const { workspaceId, endpoint, secret: oldSecret } = await setUp();
    const { secret: newSecret } = await rotateEndpointSecret(workspaceId, endpoint.id, "key_test");
    const message = await insertTestMessage(workspaceId);
    await record(workspaceId, message, "EMAIL_MESSAGE_CREATED");
    await deliverDue(workspaceId, manualClock());
    const [during] = receiver.received;
    expect(during.headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(new Webhook(oldSecret).verify(during.body, during.headers)).toBeTruthy();
    expect(new Webhook(newSecret).verify(during.body, during.headers)).toBeTruthy();

    await record(workspaceId, message, "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT");
    receiver.received.length = 0;
    const later = new Date(Date.now() + 24 * 3600_000 + 1000);
    // Signatures carry their timestamp: verify "now" as the receiver would at that time.
    await deliverDue(workspaceId, manualClock(later));
    const [after] = receiver.received;
    expect(after.headers["webhook-signature"].split(" ")).toHaveLength(1);
    expect(after.headers["webhook-timestamp"]).toBe(String(Math.floor(later.getTime() / 1000)));
    const { Webhook: Verifier } = await import("standardwebhooks");
    const verifyAt = (secret: string) => {
      const realNow = Date.now;
      Date.now = () => later.getTime();
      try {
        return new Verifier(secret).verify(after.body, after.headers);
      } finally {
        Date.now = realNow;
      }
    };
    expect(verifyAt(newSecret)).toBeTruthy();
    expect(() => verifyAt(oldSecret)).toThrow();
  });

  it("disables an endpoint after N failed deliveries in a row, and replays what it missed once re-enabled", async () => {
    useSettings({ WEBHOOK_DISABLE_AFTER_FAILURES: "2" });
    try {
      const { workspaceId, endpoint, secret } = await setUp();
      receiver.mode = "fail";
      const clock = manualClock();
      const messages = [await insertTestMessage(workspaceId), await insertTestMessage(workspaceId)];
      for (const message of messages) await record(workspaceId, message, "EMAIL_MESSAGE_CREATED");
      for (let i = 0; i <= RETRY_DELAYS_MS.length; i++) {
        await deliverDue(workspaceId, clock);
        clock.advance(RETRY_DELAYS_MS[i] ?? 0);
      }
      const db = await getDb();
      const [disabled] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
      expect(disabled.enabled).toBe(false);
      expect(disabled.disabledReason).toMatch(/2 deliveries in a row failed/);
      // Recorded while disabled: no delivery at all.
      const third = await insertTestMessage(workspaceId);
      await record(workspaceId, third, "EMAIL_MESSAGE_CREATED");
      await deliverDue(workspaceId, clock);
      expect(await db.$count(webhookDeliveries, eq(webhookDeliveries.endpointId, endpoint.id))).toBe(2);
      await expect(
        replayEndpoint(workspaceId, endpoint.id, { since: new Date(0).toISOString() }),
      ).rejects.toMatchObject({ code: "CONFLICT" });

      await updateEndpoint(workspaceId, endpoint.id, { enabled: true }, "key_test");
      receiver.mode = "ok";
      receiver.received.length = 0;
      expect(
        await replayEndpoint(workspaceId, endpoint.id, { since: new Date(Date.now() - 3600_000).toISOString() }),
      ).toEqual({ replayed: 3, more: false });
      await deliverDue(workspaceId, manualClock());
      expect(
        verifiedPayloads(secret)
          .map((payload) => payload.data.message?.id)
          .sort(),
      ).toEqual([...messages, third].sort());
      // Nothing missed any more: a second replay has nothing to send.
      expect(await replayEndpoint(workspaceId, endpoint.id, { since: new Date(0).toISOString() })).toEqual({
        replayed: 0,
        more: false,
      });
      const [enabled] = await db
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, endpoint.id)));
      expect([enabled.enabled, enabled.disabledReason, enabled.consecutiveFailures, enabled.failingSince]).toEqual([
        true,
        null,
        0,
        null,
      ]);
    } finally {
      useSettings({ WEBHOOK_DISABLE_AFTER_FAILURES: undefined });
    }
  });

  it("disables an endpoint that failed every attempt for 5 days, and mails the workspace's owners (not its other members)", async () => {
    const { workspaceId, endpoint } = await setUp();
    const owner = await createUser({
      email: `owner-${endpoint.id.slice(-8).toLowerCase()}@example.org`,
      password: "owner-password",
      workspaceId,
      role: "OWNER",
    });
    const member = await createUser({
      email: `member-${endpoint.id.slice(-8).toLowerCase()}@example.org`,
      password: "member-password",
      workspaceId,
      role: "MEMBER",
    });
    receiver.mode = "fail";
    const clock = manualClock();
    for (let day = 0; day <= 5; day++) {
      const message = await insertTestMessage(workspaceId);
      await record(workspaceId, message, "EMAIL_MESSAGE_CREATED", { at: clock.now() });
      await deliverDue(workspaceId, clock);
      clock.advance(24 * 3600_000 + 1);
    }
    const [row] = await (await getDb()).select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(row.enabled).toBe(false);
    expect(row.disabledReason).toMatch(/failed for 5 days/);
    const mails = await (
      await getDb()
    )
      .select({ to: emailMessages.toAddresses, subject: emailMessages.subject, text: emailMessages.bodyText })
      .from(emailMessages)
      .where(
        and(
          eq(emailMessages.workspaceId, SYSTEM_WORKSPACE_ID),
          sql`${emailMessages.toAddresses} && array[${owner.email}, ${member.email}]::text[]`,
        ),
      );
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: [owner.email], subject: `Webhook endpoint disabled: ${receiver.url}` });
    expect(mails[0].text).toContain("failed for 5 days");
  });
});
