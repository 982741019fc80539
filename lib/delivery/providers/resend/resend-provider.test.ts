import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessageLogs, emailMessages } from "@/db/schema/index";
import { resetEnvForTests } from "@/lib/foundation/env";
import { newId } from "@/lib/foundation/ids";
import { enqueueDelivery, getQueue } from "@/lib/records/queue/queue";
import { startWorkers, stopWorkers } from "@/lib/entry/worker/worker";
import { startFakeResend, type FakeResend } from "@/lib/testing/fake-resend";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { waitFor } from "@/lib/testing/wait-for";
import { buildMime, type MailFields } from "@/lib/delivery/mime/build-mime";
import { getDeliveryProvider } from "@/lib/delivery/registry";
import { resendProvider } from "./resend-provider";

/** "DELIVERY_PROVIDER=resend": through the real queue and workers against a local Resend-like API. */
const SETTINGS = ["DELIVERY_PROVIDER", "RESEND_API_KEY", "RESEND_BASE_URL"] as const;
const saved = Object.fromEntries(SETTINGS.map((name) => [name, process.env[name]]));
let fake: FakeResend;

function setEnv(values: Partial<Record<(typeof SETTINGS)[number], string>>) {
  for (const name of SETTINGS) {
    if (values[name] === undefined) delete process.env[name];
    else process.env[name] = values[name];
  }
  resetEnvForTests();
}

beforeAll(async () => {
  fake = await startFakeResend();
  setEnv({ DELIVERY_PROVIDER: "resend", RESEND_API_KEY: fake.apiKey, RESEND_BASE_URL: fake.url });
  await startWorkers({ pollingIntervalSeconds: 0.5 });
});

afterAll(async () => {
  await stopWorkers();
  setEnv(saved);
  await fake.close();
});

async function acceptMessage(): Promise<string> {
  const { workspace } = await createTestWorkspace();
  const db = await getDb();
  await getQueue(); // started before the transaction: on PGlite it shares the one connection
  const id = newId("message");
  await db.transaction(async (tx) => {
    await tx.insert(emailMessages).values({
      id,
      workspaceId: workspace.id,
      source: "API",
      sandbox: false,
      status: "PENDING",
      to: ["Ada <ada@example.org>"],
      cc: ["cc@example.org"],
      bcc: ["bcc@example.org"],
      from: "Acme <hello@example.com>",
      replyTo: "support@example.com",
      subject: "Hello",
      bodyHtml: "<p>Hi Ada</p>",
      bodyText: "Hi Ada",
      headers: { References: "<thread-1@example.com>" },
      attachments: [
        { name: "a.txt", contentType: "text/plain", size: 5, contentBase64: Buffer.from("hello").toString("base64") },
      ],
    });
    await enqueueDelivery(tx, { workspaceId: workspace.id, messageId: id });
  });
  return id;
}

async function settled(id: string) {
  const db = await getDb();
  const message = await waitFor(
    async () => {
      const [row] = await db.select().from(emailMessages).where(eq(emailMessages.id, id));
      return row.status !== "PENDING" && row;
    },
    { what: `message ${id} to leave PENDING`, timeout: 45_000, every: 100 },
  );
  const events = await db
    .select()
    .from(emailMessageLogs)
    .where(eq(emailMessageLogs.emailMessageId, id))
    .orderBy(asc(emailMessageLogs.createdAt));
  return { message, events };
}

const callsFor = (id: string) => fake.calls.filter((call) => call.idempotencyKey === id);

describe("the resend provider", () => {
  it("sends every field with the message id as Idempotency-Key; Resend's id becomes the referenceId", async () => {
    const id = await acceptMessage();
    const { message, events } = await settled(id);
    expect(message.status).toBe("SUCCEEDED");
    const calls = callsFor(id);
    expect(calls).toHaveLength(1);
    expect(calls[0].authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(fake.emails.has(message.referenceId)).toBe(true);
    expect(calls[0].body).toMatchObject({
      from: "Acme <hello@example.com>",
      to: ["Ada <ada@example.org>"],
      cc: ["cc@example.org"],
      bcc: ["bcc@example.org"],
      reply_to: "support@example.com",
      subject: "Hello",
      html: "<p>Hi Ada</p>",
      text: "Hi Ada",
      headers: { References: "<thread-1@example.com>" },
      attachments: [
        { filename: "a.txt", content_type: "text/plain", content: Buffer.from("hello").toString("base64") },
      ],
    });
    expect(events.map((event) => event.code)).toEqual(["EMAIL_MESSAGE_SENT_PROVIDER_EVENT"]);
    expect(events[0].message).toBe("Sent through Resend.");
    expect(message.sentAt).not.toBeNull();
    expect(message.deliveredAt).toBeNull();
  });

  it("retries a 429 and sends once, with the same Idempotency-Key on both tries", async () => {
    const before = fake.emails.size;
    fake.failNext(429, 1, { message: "Too many requests." });
    const id = await acceptMessage();
    const { message } = await settled(id);
    expect(message.status).toBe("SUCCEEDED");
    const calls = callsFor(id);
    expect(calls.map((call) => call.status)).toEqual([429, 200]);
    expect(fake.emails.has(message.referenceId)).toBe(true);
    expect(calls[0].idempotencyKey).toBe(calls[1].idempotencyKey);
    expect(fake.emails.size).toBe(before + 1);
  }, 60_000);

  it("a lost answer (500 after Resend created the email) is retried into the same email, not a second one", async () => {
    const before = fake.emails.size;
    fake.failNext(500, 1, { afterCreating: true });
    const id = await acceptMessage();
    const { message } = await settled(id);
    expect(message.status).toBe("SUCCEEDED");
    expect(callsFor(id).map((call) => call.status)).toEqual([500, 200]);
    expect(fake.emails.size).toBe(before + 1);
  }, 60_000);

  it("a 422 fails the message with Resend's message on the timeline", async () => {
    fake.failNext(422, 1, { message: "Invalid `to` field." });
    const id = await acceptMessage();
    const { message, events } = await settled(id);
    expect(message.status).toBe("FAILED");
    expect(callsFor(id)).toHaveLength(1);
    const error = events.find((event) => event.code === "EMAIL_MESSAGE_PROVIDER_ERROR");
    expect(error?.message).toBe("Resend rejected the message: Invalid `to` field. (HTTP 422, validation_error)");
  });
});

describe("resend provider edge cases", () => {
  const fields: MailFields = {
    from: "hello@example.com",
    to: ["ada@example.org"],
    cc: [],
    bcc: [],
    replyTo: null,
    subject: "Hi",
    html: "<p>Hi</p>",
    text: "Hi",
    references: null,
    attachments: [],
  };

  it("a network failure (no answer) is a retry, not a failure", async () => {
    const provider = resendProvider({ apiKey: "re_x", baseUrl: "http://127.0.0.1:9" });
    const mail = { workspaceId: "ws", messageId: "em_x", fields, mime: await buildMime("em_x", fields) };
    const result = await provider.send(mail, { db: await getDb(), attempt: 0 });
    expect(result.outcome).toBe("retry");
  });

  it("a wrong API key is a permanent failure", async () => {
    const provider = resendProvider({ apiKey: "re_wrong", baseUrl: fake.url });
    const mail = { workspaceId: "ws", messageId: "em_y", fields, mime: await buildMime("em_y", fields) };
    const result = await provider.send(mail, { db: await getDb(), attempt: 0 });
    expect(result).toEqual({ outcome: "failed", diagnostic: "API key is invalid. (HTTP 403, invalid_api_key)" });
  });

  it("DELIVERY_PROVIDER=resend without RESEND_API_KEY stops at startup with a plain message", () => {
    try {
      setEnv({ DELIVERY_PROVIDER: "resend" });
      expect(() => getDeliveryProvider()).toThrow("DELIVERY_PROVIDER=resend needs RESEND_API_KEY");
    } finally {
      setEnv({ DELIVERY_PROVIDER: "resend", RESEND_API_KEY: fake.apiKey, RESEND_BASE_URL: fake.url });
    }
  });
});
