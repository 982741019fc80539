import { randomBytes, randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessageLogs, emailMessages, suppressions } from "@/db/schema";
import { resetEnvForTests } from "@/lib/foundation/env";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { POST } from "./handlers";

const SECRET = `whsec_${randomBytes(24).toString("base64")}`;
const saved = process.env.RESEND_WEBHOOK_SECRET;
let workspaceId: string;

beforeAll(async () => {
  process.env.RESEND_WEBHOOK_SECRET = SECRET;
  resetEnvForTests();
  workspaceId = (await createTestWorkspace()).workspace.id;
});

afterAll(() => {
  if (saved === undefined) delete process.env.RESEND_WEBHOOK_SECRET;
  else process.env.RESEND_WEBHOOK_SECRET = saved;
  resetEnvForTests();
});

interface Delivery {
  type: string;
  emailId: string;
  at: Date;
  data?: Record<string, unknown>;
  svixId?: string;
  signedAt?: Date;
  secret?: string;
}

/** Posts one event to the real route, signed the way Resend (Svix) signs it. */
function deliver({
  type,
  emailId,
  at,
  data = {},
  svixId = `msg_${randomUUID()}`,
  signedAt = new Date(),
  secret = SECRET,
}: Delivery) {
  const rawBody = JSON.stringify({
    type,
    created_at: at.toISOString(),
    data: {
      created_at: at.toISOString(),
      email_id: emailId,
      from: "hello@example.com",
      to: ["ada@example.org"],
      subject: "Hello",
      ...data,
    },
  });
  const headers = {
    "content-type": "application/json",
    "svix-id": svixId,
    "svix-timestamp": String(Math.floor(signedAt.getTime() / 1000)),
    "svix-signature": new Webhook(secret).sign(svixId, signedAt, rawBody),
  };
  return callRoute(POST, "/api/provider-events/resend", { method: "POST", rawBody, headers });
}

async function sentMessage() {
  const emailId = randomUUID();
  const id = await insertTestMessage(workspaceId, { referenceId: emailId });
  return { id, emailId };
}

async function state(id: string) {
  const db = await getDb();
  const [message] = await db.select().from(emailMessages).where(eq(emailMessages.id, id));
  const events = await db
    .select()
    .from(emailMessageLogs)
    .where(eq(emailMessageLogs.emailMessageId, id))
    .orderBy(asc(emailMessageLogs.createdAt));
  return { message, events };
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe("POST /api/provider-events/resend", () => {
  it("records email.delivered at the event's time and moves the status", async () => {
    const { id, emailId } = await sentMessage();
    const at = minutesAgo(2);
    const response = await deliver({ type: "email.delivered", emailId, at });
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual({ outcome: "recorded", messageId: id });
    const { message, events } = await state(id);
    expect(message.status).toBe("SUCCEEDED");
    expect(message.deliveredAt?.toISOString()).toBe(at.toISOString());
    expect(events).toHaveLength(1);
    expect(events[0].code).toBe("EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT");
    expect(events[0].message).toBe(`Delivered to ada@example.org at ${at.toISOString()}.`);
  });

  it("sets first and last open and click times, with the client and the link in the sentences", async () => {
    const { id, emailId } = await sentMessage();
    const [t1, t2, t3] = [minutesAgo(3), minutesAgo(2), minutesAgo(1)];
    const open = { ipAddress: "203.0.113.7", userAgent: "Mozilla/5.0" };
    expect((await deliver({ type: "email.opened", emailId, at: t3 })).status).toBe(200);
    expect((await deliver({ type: "email.opened", emailId, at: t1, data: { open } })).status).toBe(200);
    const click = {
      link: "https://example.com/start",
      ipAddress: "203.0.113.7",
      userAgent: "Mozilla/5.0",
      timestamp: t2.toISOString(),
    };
    expect((await deliver({ type: "email.clicked", emailId, at: t2, data: { click } })).status).toBe(200);
    const { message, events } = await state(id);
    expect(message.firstOpenedAt?.toISOString()).toBe(t1.toISOString());
    expect(message.lastOpenedAt?.toISOString()).toBe(t3.toISOString());
    expect(message.firstClickedAt?.toISOString()).toBe(t2.toISOString());
    expect(message.lastClickedAt?.toISOString()).toBe(t2.toISOString());
    expect(events.map((event) => event.message)).toEqual([
      `Opened at ${t1.toISOString()} from 203.0.113.7 with Mozilla/5.0.`,
      `Clicked https://example.com/start at ${t2.toISOString()} from 203.0.113.7 with Mozilla/5.0.`,
      `Opened at ${t3.toISOString()}.`,
    ]);
  });

  it("records the same svix-id once", async () => {
    const { id, emailId } = await sentMessage();
    const first = await deliver({ type: "email.opened", emailId, at: minutesAgo(1), svixId: "msg_same" });
    const again = await deliver({ type: "email.opened", emailId, at: minutesAgo(1), svixId: "msg_same" });
    expect(first.json.data.outcome).toBe("recorded");
    expect(again.status).toBe(200);
    expect(again.json.data.outcome).toBe("duplicate");
    expect((await state(id)).events).toHaveLength(1);
  });

  it("delivered arriving after clicked keeps SUCCEEDED and both times right", async () => {
    const { id, emailId } = await sentMessage();
    const [deliveredAt, clickedAt] = [minutesAgo(5), minutesAgo(1)];
    await deliver({
      type: "email.clicked",
      emailId,
      at: clickedAt,
      data: { click: { link: "https://example.com/a" } },
    });
    await deliver({ type: "email.delivered", emailId, at: deliveredAt });
    const { message, events } = await state(id);
    expect(message.status).toBe("SUCCEEDED");
    expect(message.deliveredAt?.toISOString()).toBe(deliveredAt.toISOString());
    expect(message.firstClickedAt?.toISOString()).toBe(clickedAt.toISOString());
    // The timeline reads in event time, not arrival order.
    expect(events.map((event) => event.code)).toEqual([
      "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
      "EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT",
    ]);
  });

  it("records bounces with the diagnostic, delays and complaints", async () => {
    const { id, emailId } = await sentMessage();
    const bounce = { type: "Permanent", subType: "General", message: "550 5.1.1 The email account does not exist." };
    const [t1, t2, t3] = [minutesAgo(3), minutesAgo(2), minutesAgo(1)];
    await deliver({ type: "email.delivery_delayed", emailId, at: t1 });
    await deliver({ type: "email.bounced", emailId, at: t2, data: { bounce } });
    await deliver({ type: "email.complained", emailId, at: t3 });
    const { message, events } = await state(id);
    expect(message.firstBouncedAt?.toISOString()).toBe(t2.toISOString());
    expect(message.firstComplainedAt?.toISOString()).toBe(t3.toISOString());
    expect(events.map((event) => [event.code, event.message])).toEqual([
      [
        "EMAIL_MESSAGE_DELIVERY_DELAYED_PROVIDER_EVENT",
        `Delivery to ada@example.org is delayed (reported at ${t1.toISOString()}): the receiving server has not accepted it yet, and Resend keeps trying.`,
      ],
      [
        "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT",
        `Bounced (Permanent, General) for ada@example.org at ${t2.toISOString()}: 550 5.1.1 The email account does not exist.`,
      ],
      ["EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT", `ada@example.org marked the message as spam at ${t3.toISOString()}.`],
    ]);
    expect(events[1].details).toMatchObject({ bounceType: "Permanent", diagnostic: bounce.message });
  });

  it("a hard bounce or a complaint suppresses the sole recipient; a soft bounce or several recipients do not", async () => {
    const { workspace } = await createTestWorkspace();
    const db = await getDb();
    const listed = async () =>
      db.select().from(suppressions).where(eq(suppressions.workspaceId, workspace.id)).orderBy(asc(suppressions.email));
    const message = async (overrides: Partial<typeof emailMessages.$inferInsert>) => {
      const emailId = randomUUID();
      await insertTestMessage(workspace.id, { referenceId: emailId, ...overrides });
      return emailId;
    };
    const soft = await message({ to: ["soft@example.org"] });
    await deliver({
      type: "email.bounced",
      emailId: soft,
      at: minutesAgo(1),
      data: { bounce: { type: "Transient", message: "Mailbox full" } },
    });
    const several = await message({ to: ["a@example.org"], cc: ["b@example.org"] });
    await deliver({ type: "email.complained", emailId: several, at: minutesAgo(1) });
    expect(await listed()).toEqual([]);

    const hard = await message({ to: ["Hard <Hard@Example.org>"] });
    await deliver({
      type: "email.bounced",
      emailId: hard,
      at: minutesAgo(1),
      data: { bounce: { type: "Permanent", message: "550 No such user" } },
    });
    const complained = await message({ to: ["spam@example.org"] });
    await deliver({ type: "email.complained", emailId: complained, at: minutesAgo(1) });
    expect((await listed()).map((row) => [row.email, row.reason])).toEqual([
      ["hard@example.org", "HARD_BOUNCE"],
      ["spam@example.org", "COMPLAINT"],
    ]);
  });

  it("email.sent adds no second SENT to one the send call already recorded", async () => {
    const { id, emailId } = await sentMessage();
    expect((await deliver({ type: "email.sent", emailId, at: minutesAgo(2) })).json.data.outcome).toBe("recorded");
    expect((await deliver({ type: "email.sent", emailId, at: minutesAgo(1) })).json.data.outcome).toBe("duplicate");
    const { message, events } = await state(id);
    expect(events).toHaveLength(1);
    expect(message.status).toBe("SUCCEEDED");
  });

  it("answers 200 and records nothing for event types outside the timeline", async () => {
    const response = await deliver({ type: "contact.created", emailId: "x", at: new Date() });
    expect(response.status).toBe(200);
    expect(response.json.data.outcome).toBe("ignored");
  });

  it("rejects a forged, a stale and an unsigned delivery with 401 JSON", async () => {
    const { id, emailId } = await sentMessage();
    const forged = await deliver({
      type: "email.delivered",
      emailId,
      at: new Date(),
      secret: `whsec_${randomBytes(24).toString("base64")}`,
    });
    const stale = await deliver({ type: "email.delivered", emailId, at: minutesAgo(6), signedAt: minutesAgo(6) });
    const unsigned = await callRoute(POST, "/api/provider-events/resend", {
      method: "POST",
      body: { type: "email.delivered", created_at: new Date().toISOString(), data: { email_id: emailId } },
    });
    for (const response of [forged, stale, unsigned]) {
      expect(response.status).toBe(401);
      expect(response.json.error.code).toBe("UNAUTHORIZED");
      expect(response.headers.get("www-authenticate")).toBeNull();
    }
    expect(stale.json.error.message).toContain("too old");
    expect(unsigned.json.error.message).toContain("Missing webhook signature");
    expect((await state(id)).events).toHaveLength(0);
  });

  it("answers 409 for a recent event of an unknown email id, so Resend retries it until the id is stored", async () => {
    const emailId = randomUUID();
    const at = new Date();
    const early = await deliver({ type: "email.delivered", emailId, at, svixId: "msg_early" });
    expect(early.status).toBe(409);
    expect(early.json.error.code).toBe("CONFLICT");
    // The send call's answer commits the reference id; Resend's retry then lands.
    const id = await insertTestMessage(workspaceId, { referenceId: emailId });
    const retried = await deliver({ type: "email.delivered", emailId, at, svixId: "msg_early" });
    expect(retried.status).toBe(200);
    expect(retried.json.data).toEqual({ outcome: "recorded", messageId: id });
    expect((await state(id)).message.deliveredAt?.toISOString()).toBe(at.toISOString());
  });

  it("acknowledges without recording an unknown email id older than the retry window (not ours)", async () => {
    const response = await deliver({ type: "email.delivered", emailId: randomUUID(), at: minutesAgo(120) });
    expect(response.status).toBe(200);
    expect(response.json.data.outcome).toBe("ignored");
  });

  it("answers 503 while RESEND_WEBHOOK_SECRET is not set", async () => {
    delete process.env.RESEND_WEBHOOK_SECRET;
    resetEnvForTests();
    try {
      const response = await deliver({ type: "email.delivered", emailId: randomUUID(), at: new Date() });
      expect(response.status).toBe(503);
    } finally {
      process.env.RESEND_WEBHOOK_SECRET = SECRET;
      resetEnvForTests();
    }
  });
});
