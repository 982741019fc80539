import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { suppressions, workspaces } from "@/db/schema";
import { clearSnsCertificateCacheForTests } from "@/lib/delivery/providers/ses/sns-certificates";
import { startFakeSns, sesEvent, TEST_TOPIC_ARN, type FakeSns, type SignOptions } from "@/lib/testing/fake-sns";
import { createTestWorkspace, insertTestMessage, readMessageState } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { useSettings } from "@/lib/testing/settings";
import { POST } from "./handlers";

const SETTINGS = ["SES_SNS_TOPIC_ARNS", "SNS_TEST_TRUSTED_ORIGIN", "AUTO_PAUSE_MIN_MESSAGES"] as const;
const saved = Object.fromEntries(SETTINGS.map((name) => [name, process.env[name]]));
let sns: FakeSns;
let workspaceId: string;

beforeAll(async () => {
  sns = await startFakeSns();
  useSettings({
    SES_SNS_TOPIC_ARNS: `arn:aws:sns:eu-west-1:123456789012:second, ${TEST_TOPIC_ARN}`,
    SNS_TEST_TRUSTED_ORIGIN: sns.origin,
  });
  workspaceId = (await createTestWorkspace()).workspace.id;
});

beforeEach(() => clearSnsCertificateCacheForTests());

afterAll(async () => {
  useSettings(saved);
  await sns.close();
});

const post = (body: unknown) =>
  callRoute(POST, "/api/provider-events/ses", {
    method: "POST",
    rawBody: typeof body === "string" ? body : JSON.stringify(body),
  });
const notify = (message: string, options?: SignOptions) => post(sns.notification(message, options));
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

async function sentMessage(overrides: Parameters<typeof insertTestMessage>[1] = {}, workspace = workspaceId) {
  const sesMessageId = `0102${randomUUID().replaceAll("-", "")}-000000`;
  const id = await insertTestMessage(workspace, {
    referenceId: sesMessageId,
    status: "SUCCEEDED",
    sentAt: minutesAgo(10),
    ...overrides,
  });
  return { id, sesMessageId };
}

describe("POST /api/provider-events/ses: SES events", () => {
  it("records a Delivery (SignatureVersion 1) at its own time, with the delivery time and the remote MTA", async () => {
    const { id, sesMessageId } = await sentMessage();
    const at = minutesAgo(2);
    const delivery = {
      timestamp: at.toISOString(),
      processingTimeMillis: 1834,
      recipients: ["ada@example.org"],
      smtpResponse: "250 2.0.0 OK 1700000000 x",
      reportingMTA: "a8-1.smtp-out.amazonses.com",
      remoteMtaIp: "203.0.113.9",
    };
    const response = await notify(sesEvent("Delivery", sesMessageId, { delivery }));
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual({ outcome: "recorded", messageId: id });
    const { message, events } = await readMessageState(id);
    expect(message.deliveredAt?.toISOString()).toBe(at.toISOString());
    expect(events.map((event) => [event.code, event.message])).toEqual([
      [
        "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
        `Delivered to ada@example.org at ${at.toISOString()}, 1.8 s after SES accepted it; the receiving server 203.0.113.9 answered "250 2.0.0 OK 1700000000 x" (reported by a8-1.smtp-out.amazonses.com).`,
      ],
    ]);
    expect(events[0].details).toMatchObject({
      provider: "ses",
      type: "Delivery",
      processingTimeMillis: 1834,
      remoteMtaIp: "203.0.113.9",
    });
  });

  it("verifies SignatureVersion 2 (SHA256withRSA) too", async () => {
    const { id, sesMessageId } = await sentMessage();
    const response = await notify(
      sesEvent("Open", sesMessageId, {
        open: { timestamp: minutesAgo(1).toISOString(), ipAddress: "198.51.100.4", userAgent: "Mozilla/5.0 (X11)" },
      }),
      { version: "2" },
    );
    expect(response.status).toBe(200);
    expect((await readMessageState(id)).codes).toEqual(["EMAIL_MESSAGE_OPEN_PROVIDER_EVENT"]);
  });

  it("maps Send, Reject, DeliveryDelay, Open, Click and Rendering Failure with their details", async () => {
    const { id, sesMessageId } = await sentMessage({ status: "PENDING", sentAt: null });
    const [t1, t2, t3, t4] = [minutesAgo(9), minutesAgo(8), minutesAgo(7), minutesAgo(6)];
    const expiration = new Date(Date.now() + 3600_000).toISOString();
    await notify(sesEvent("Send", sesMessageId, { send: {} }, t1));
    const delayedRecipients = [
      { emailAddress: "ada@example.org", status: "4.4.7", diagnosticCode: "smtp; 421 4.4.0 Unable to lookup DNS" },
    ];
    await notify(
      sesEvent(
        "DeliveryDelay",
        sesMessageId,
        {
          deliveryDelay: {
            timestamp: t2.toISOString(),
            delayType: "TransientCommunicationFailure",
            expirationTime: expiration,
            delayedRecipients,
          },
        },
        t1,
      ),
    );
    await notify(
      sesEvent(
        "Open",
        sesMessageId,
        { open: { timestamp: t3.toISOString(), ipAddress: "198.51.100.4", userAgent: "Mozilla/5.0 (X11)" } },
        t1,
      ),
    );
    await notify(
      sesEvent(
        "Click",
        sesMessageId,
        {
          click: {
            timestamp: t4.toISOString(),
            ipAddress: "198.51.100.4",
            userAgent: "Mozilla/5.0 (X11)",
            link: "https://example.com/start",
          },
        },
        t1,
      ),
    );
    const { message, events } = await readMessageState(id);
    expect(events.map((event) => [event.code, event.message])).toEqual([
      ["EMAIL_MESSAGE_SENT_PROVIDER_EVENT", `SES accepted the message at ${t1.toISOString()}.`],
      [
        "EMAIL_MESSAGE_DELIVERY_DELAYED_PROVIDER_EVENT",
        `Delivery to ada@example.org is delayed (TransientCommunicationFailure, reported at ${t2.toISOString()}): smtp; 421 4.4.0 Unable to lookup DNS; SES keeps trying until ${expiration}.`,
      ],
      ["EMAIL_MESSAGE_OPEN_PROVIDER_EVENT", `Opened at ${t3.toISOString()} from 198.51.100.4 with Mozilla/5.0 (X11).`],
      [
        "EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT",
        `Clicked https://example.com/start at ${t4.toISOString()} from 198.51.100.4 with Mozilla/5.0 (X11).`,
      ],
    ]);
    expect(events[0].providerEventId).toBe("ses:sent");
    expect(message.firstClickedAt?.toISOString()).toBe(t4.toISOString());

    const rejected = await sentMessage(); // SES took the call, then refused the content: SUCCEEDED → FAILED
    await notify(sesEvent("Reject", rejected.sesMessageId, { reject: { reason: "Bad content" } }));
    const failed = await readMessageState(rejected.id);
    expect(failed.events.map((event) => [event.code, event.message])).toEqual([
      ["EMAIL_MESSAGE_PROVIDER_ERROR", "SES rejected the message: Bad content."],
    ]);
    expect(failed.message.status).toBe("FAILED");

    const unrendered = await sentMessage({ status: "PENDING", sentAt: null });
    await notify(
      sesEvent("Rendering Failure", unrendered.sesMessageId, {
        failure: { templateName: "welcome", errorMessage: "Attribute 'name' is not present" },
      }),
    );
    expect((await readMessageState(unrendered.id)).events.map((event) => event.message)).toEqual([
      "SES could not render the message from template welcome: Attribute 'name' is not present.",
    ]);
  });

  it("a Send after the send call's own SENT records no second one", async () => {
    const { workspace } = await createTestWorkspace();
    const { id, sesMessageId } = await sentMessage({ status: "PENDING", sentAt: null }, workspace.id);
    expect((await notify(sesEvent("Send", sesMessageId, { send: {} }))).json.data.outcome).toBe("recorded");
    expect((await notify(sesEvent("Send", sesMessageId, { send: {} }))).json.data.outcome).toBe("duplicate");
    expect((await readMessageState(id)).codes).toEqual(["EMAIL_MESSAGE_SENT_PROVIDER_EVENT"]);
  });
});

describe("POST /api/provider-events/ses: bounces and complaints", () => {
  const listed = async (workspace: string) =>
    (
      await (
        await getDb()
      )
        .select()
        .from(suppressions)
        .where(eq(suppressions.workspaceId, workspace))
        .orderBy(asc(suppressions.email))
    ).map((row) => [row.email, row.reason]);

  it("a Permanent bounce is one event naming every bounced recipient, each suppressed", async () => {
    const { workspace } = await createTestWorkspace();
    const { id, sesMessageId } = await sentMessage(
      { to: ["Ada <ada@example.org>", "bob@example.org"], cc: ["carol@example.org"] },
      workspace.id,
    );
    const at = minutesAgo(1);
    const bouncedRecipients = [
      {
        emailAddress: "ada@example.org",
        action: "failed",
        status: "5.1.1",
        diagnosticCode: "smtp; 550 5.1.1 user unknown",
      },
      {
        emailAddress: "Bob@Example.org",
        action: "failed",
        status: "5.1.1",
        diagnosticCode: "smtp; 550 5.1.1 user unknown",
      },
    ];
    const bounce = {
      bounceType: "Permanent",
      bounceSubType: "General",
      bouncedRecipients,
      timestamp: at.toISOString(),
      feedbackId: "x",
      reportingMTA: "dsn; a8-1.smtp-out.amazonses.com",
    };
    expect((await notify(sesEvent("Bounce", sesMessageId, { bounce }))).json.data.outcome).toBe("recorded");
    const { message, events } = await readMessageState(id);
    expect(events.map((event) => [event.code, event.message])).toEqual([
      [
        "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT",
        `Bounced (Permanent, General) for ada@example.org, Bob@Example.org at ${at.toISOString()}: smtp; 550 5.1.1 user unknown.`,
      ],
    ]);
    expect(events[0].details).toMatchObject({
      bounceType: "Permanent",
      bounceSubType: "General",
      reportingMTA: "dsn; a8-1.smtp-out.amazonses.com",
    });
    expect(message.firstBouncedAt?.toISOString()).toBe(at.toISOString());
    expect(await listed(workspace.id)).toEqual([
      ["ada@example.org", "HARD_BOUNCE"],
      ["bob@example.org", "HARD_BOUNCE"],
    ]);
  });

  it("a Transient bounce is a timeline event with its diagnostic, and suppresses nothing", async () => {
    const { workspace } = await createTestWorkspace();
    const { id, sesMessageId } = await sentMessage({}, workspace.id);
    const bouncedRecipients = [{ emailAddress: "ada@example.org", diagnosticCode: "smtp; 552 5.2.2 mailbox full" }];
    const at = minutesAgo(1);
    await notify(
      sesEvent("Bounce", sesMessageId, {
        bounce: {
          bounceType: "Transient",
          bounceSubType: "MailboxFull",
          bouncedRecipients,
          timestamp: at.toISOString(),
        },
      }),
    );
    const { events } = await readMessageState(id);
    expect(events.map((event) => event.message)).toEqual([
      `Bounced (Transient, MailboxFull) for ada@example.org at ${at.toISOString()}: smtp; 552 5.2.2 mailbox full. A transient bounce: the address stays deliverable.`,
    ]);
    expect(await listed(workspace.id)).toEqual([]);
  });

  it("a Complaint suppresses the complaining recipient and names the feedback type; the older notification format works too", async () => {
    const { workspace } = await createTestWorkspace();
    const { id, sesMessageId } = await sentMessage({ to: ["ada@example.org", "bob@example.org"] }, workspace.id);
    const at = minutesAgo(1);
    const legacy = JSON.parse(
      sesEvent("Complaint", sesMessageId, {
        complaint: {
          complainedRecipients: [{ emailAddress: "bob@example.org" }],
          timestamp: at.toISOString(),
          complaintFeedbackType: "abuse",
          userAgent: "Yahoo!-Mail-Feedback/2.0",
        },
      }),
    ) as Record<string, unknown>;
    delete legacy.eventType;
    legacy.notificationType = "Complaint";
    expect((await notify(JSON.stringify(legacy))).json.data.outcome).toBe("recorded");
    const { message, events } = await readMessageState(id);
    expect(events.map((event) => [event.code, event.message])).toEqual([
      [
        "EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT",
        `bob@example.org marked the message as spam at ${at.toISOString()} (feedback type: abuse).`,
      ],
    ]);
    expect(message.firstComplainedAt?.toISOString()).toBe(at.toISOString());
    expect(await listed(workspace.id)).toEqual([["bob@example.org", "COMPLAINT"]]);
  });

  it("hard bounces past AUTO_PAUSE_BOUNCE_RATE pause the workspace", async () => {
    useSettings({ AUTO_PAUSE_MIN_MESSAGES: "2" });
    try {
      const { workspace } = await createTestWorkspace();
      const first = await sentMessage({}, workspace.id);
      await sentMessage({ to: ["bob@example.org"] }, workspace.id);
      const bounce = {
        bounceType: "Permanent",
        bounceSubType: "NoEmail",
        bouncedRecipients: [{ emailAddress: "ada@example.org" }],
        timestamp: minutesAgo(1).toISOString(),
      };
      await notify(sesEvent("Bounce", first.sesMessageId, { bounce }));
      const [row] = await (await getDb()).select().from(workspaces).where(eq(workspaces.id, workspace.id));
      expect(row.sendingPaused).toBe(true);
      expect(await listed(workspace.id)).toEqual([["ada@example.org", "HARD_BOUNCE"]]);
    } finally {
      useSettings({ AUTO_PAUSE_MIN_MESSAGES: saved.AUTO_PAUSE_MIN_MESSAGES });
    }
  });
});

describe("POST /api/provider-events/ses: idempotency and order", () => {
  it("the same notification twice records one event", async () => {
    const { id, sesMessageId } = await sentMessage();
    const body = sns.notification(sesEvent("Open", sesMessageId, { open: { timestamp: minutesAgo(1).toISOString() } }));
    expect((await post(body)).json.data.outcome).toBe("recorded");
    const again = await post(body);
    expect(again.status).toBe(200);
    expect(again.json.data.outcome).toBe("duplicate");
    expect((await readMessageState(id)).events).toHaveLength(1);
  });

  it("a Delivery arriving after a Click keeps SUCCEEDED, and the timeline reads in event time", async () => {
    const { id, sesMessageId } = await sentMessage();
    const [deliveredAt, clickedAt] = [minutesAgo(5), minutesAgo(1)];
    await notify(
      sesEvent("Click", sesMessageId, { click: { timestamp: clickedAt.toISOString(), link: "https://example.com/a" } }),
    );
    await notify(
      sesEvent("Delivery", sesMessageId, {
        delivery: { timestamp: deliveredAt.toISOString(), recipients: ["ada@example.org"] },
      }),
    );
    const { message, codes } = await readMessageState(id);
    expect(message.status).toBe("SUCCEEDED");
    expect(message.deliveredAt?.toISOString()).toBe(deliveredAt.toISOString());
    expect(message.firstClickedAt?.toISOString()).toBe(clickedAt.toISOString());
    expect(codes).toEqual(["EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT", "EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT"]);
  });

  it("answers 503 for a recent event of an unknown SES id (SNS retries 5xx only), and records it once the id is stored", async () => {
    const sesMessageId = `0102${randomUUID().replaceAll("-", "")}-000000`;
    const body = sns.notification(
      sesEvent("Delivery", sesMessageId, {
        delivery: { timestamp: new Date().toISOString(), recipients: ["ada@example.org"] },
      }),
    );
    const early = await post(body);
    expect(early.status).toBe(503);
    expect(early.json.error.code).toBe("SERVICE_UNAVAILABLE");
    const id = await insertTestMessage(workspaceId, {
      referenceId: sesMessageId,
      status: "SUCCEEDED",
      sentAt: new Date(),
    });
    const retried = await post(body);
    expect(retried.json.data).toEqual({ outcome: "recorded", messageId: id });
  });

  it("finds a second copy's events through the message id tag; drops an old unknown id with 200", async () => {
    const { id } = await sentMessage();
    const copy = JSON.parse(
      sesEvent("Delivery", "0102-second-copy", {
        delivery: { timestamp: minutesAgo(1).toISOString(), recipients: ["ada@example.org"] },
      }),
    ) as { mail: { tags: Record<string, string[]> } };
    copy.mail.tags["postwerk-message-id"] = [id];
    expect((await notify(JSON.stringify(copy))).json.data).toEqual({ outcome: "recorded", messageId: id });
    const old = await notify(
      sesEvent("Delivery", "0102-not-ours", { delivery: { timestamp: minutesAgo(90).toISOString() } }, minutesAgo(90)),
      { timestamp: minutesAgo(30) },
    );
    expect(old.status).toBe(200);
    expect(old.json.data.outcome).toBe("ignored");
  });

  it("answers 200 ignored for SES's test message and for event types outside the timeline", async () => {
    expect((await notify("Successfully validated SNS topic for Amazon SES event publishing.")).json.data.outcome).toBe(
      "ignored",
    );
    const { sesMessageId } = await sentMessage();
    expect((await notify(sesEvent("Subscription", sesMessageId, { subscription: {} }))).json.data.outcome).toBe(
      "ignored",
    );
  });
});
