import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessageLogs, emailMessages } from "@/db/schema/index";
import { newId } from "@/lib/foundation/ids";
import { startFakeResend, type FakeResend } from "@/lib/testing/fake-resend";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { deliverMessages } from "@/lib/delivery/deliver-batch";
import { batchIdempotencyKey, resendProvider } from "./resend-provider";

/** Several Resend deliveries held at once go through POST /emails/batch (docs/delivery.md "Resend batches"). */
let fake: FakeResend;

beforeAll(async () => {
  fake = await startFakeResend();
});

afterAll(async () => {
  await fake.close();
});

/** Inserts PENDING live messages (no jobs: the test hands them to deliverMessages itself). */
async function insertMessages(count: number, options: { withAttachment?: number } = {}) {
  const { workspace } = await createTestWorkspace();
  const rows = Array.from({ length: count }, (_, index) => ({
    id: newId("message"),
    workspaceId: workspace.id,
    source: "API" as const,
    sandbox: false,
    status: "PENDING" as const,
    to: [`reader${index}@example.org`],
    from: "Acme <hello@example.com>",
    subject: `Hello ${index}`,
    bodyHtml: `<p>Hi ${index}</p>`,
    bodyText: `Hi ${index}`,
    attachments:
      options.withAttachment === index
        ? [
            {
              name: "a.txt",
              contentType: "text/plain",
              size: 5,
              contentBase64: Buffer.from("hello").toString("base64"),
            },
          ]
        : [],
  }));
  await (await getDb()).insert(emailMessages).values(rows);
  return rows.map((row) => ({ workspaceId: row.workspaceId, messageId: row.id, subject: row.subject }));
}

function deliver(jobs: Array<{ workspaceId: string; messageId: string }>, attempt = 0) {
  const provider = resendProvider({ apiKey: fake.apiKey, baseUrl: fake.url });
  return deliverMessages(jobs.map((job) => ({ job, context: { attempt, provider } })));
}

async function stored(ids: string[]) {
  const db = await getDb();
  return db.select().from(emailMessages).where(inArray(emailMessages.id, ids));
}

describe("Resend batch sends", () => {
  it("sends a worker's messages in one batch call keyed by their sorted ids, and maps each returned id back", async () => {
    const jobs = await insertMessages(3);
    const before = fake.calls.length;
    expect(await deliver(jobs)).toEqual([null, null, null]);
    const calls = fake.calls.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ path: "/emails/batch", status: 200 });
    expect(calls[0].idempotencyKey).toBe(batchIdempotencyKey(jobs.map((job) => job.messageId).reverse()));
    expect(calls[0].batch).toHaveLength(3);
    for (const message of await stored(jobs.map((job) => job.messageId))) {
      expect(message.status).toBe("SUCCEEDED");
      // Resend's id for this very message: the email it created carries this message's subject.
      expect(fake.emails.get(message.referenceId!)?.subject).toBe(message.subject);
    }
  });

  it("sends a message with attachments singly with its own id as key, the others in a batch", async () => {
    const jobs = await insertMessages(3, { withAttachment: 1 });
    const before = fake.calls.length;
    await deliver(jobs);
    const calls = fake.calls.slice(before);
    expect(calls.map((call) => call.path).sort()).toEqual(["/emails", "/emails/batch"]);
    const single = calls.find((call) => call.path === "/emails")!;
    expect(single.idempotencyKey).toBe(jobs[1].messageId);
    expect(single.body.attachments).toHaveLength(1);
    expect(calls.find((call) => call.path === "/emails/batch")!.batch).toHaveLength(2);
    expect((await stored(jobs.map((job) => job.messageId))).map((message) => message.status)).toEqual([
      "SUCCEEDED",
      "SUCCEEDED",
      "SUCCEEDED",
    ]);
  });

  it("a 429 retries every job of the batch; the retry of the same set sends once", async () => {
    const jobs = await insertMessages(2);
    fake.failNext(429, 1, { message: "Too many requests." });
    const errors = await deliver(jobs);
    expect(errors.map((error) => error?.message)).toEqual([
      "Resend asked to try again later: Too many requests. (HTTP 429, rate_limit_exceeded)",
      "Resend asked to try again later: Too many requests. (HTTP 429, rate_limit_exceeded)",
    ]);
    expect((await stored(jobs.map((job) => job.messageId))).map((message) => message.status)).toEqual([
      "PENDING",
      "PENDING",
    ]);
    expect(await deliver(jobs, 1)).toEqual([null, null]);
    expect((await stored(jobs.map((job) => job.messageId))).every((message) => message.status === "SUCCEEDED")).toBe(
      true,
    );
  });

  it("a lost answer (500 after Resend created the batch) is retried into the same emails, not new ones", async () => {
    const jobs = await insertMessages(2);
    fake.failNext(500, 1, { afterCreating: true });
    const before = fake.emails.size;
    expect((await deliver(jobs)).every((error) => error instanceof Error)).toBe(true);
    // The worker's next batch holds the same messages in another order: the same key all the same.
    expect(await deliver([...jobs].reverse(), 1)).toEqual([null, null]);
    expect(fake.emails.size).toBe(before + 2);
    const references = (await stored(jobs.map((job) => job.messageId))).map((message) => message.referenceId);
    expect(references.every((id) => id && fake.emails.has(id))).toBe(true);
  });

  it("a batch whose answer was lost is replayed as that batch when its messages come back in other company (a killed worker's retries)", async () => {
    const jobs = await insertMessages(3);
    const [newcomer] = await insertMessages(1);
    fake.failNext(500, 1, { afterCreating: true });
    const before = fake.emails.size;
    const firstCalls = fake.calls.length;
    expect((await deliver(jobs)).every((error) => error instanceof Error)).toBe(true);
    const batchKey = fake.calls[firstCalls].idempotencyKey;
    // Two of them come back with a message never sent: the two go as the first request again (same key,
    // same body, Resend's first ids), the newcomer on its own; the third, later, alone, the same way.
    expect(await deliver([jobs[0], newcomer, jobs[1]], 1)).toEqual([null, null, null]);
    expect(await deliver([jobs[2]], 1)).toEqual([null]);
    expect(fake.emails.size).toBe(before + 4);
    const replays = fake.calls.slice(firstCalls).filter((call) => call.idempotencyKey === batchKey);
    expect(replays.map((call) => call.status)).toEqual([500, 200, 200]);
    expect(replays[1].batch).toEqual(replays[0].batch);
    for (const message of await stored([...jobs, newcomer].map((job) => job.messageId))) {
      expect(message.status).toBe("SUCCEEDED");
      expect(fake.emails.get(message.referenceId!)?.subject).toBe(message.subject);
    }
  });

  it("a lone message whose answer was lost is sent again alone with its own key, never inside a new batch", async () => {
    const [lone] = await insertMessages(1);
    const others = await insertMessages(2);
    fake.failNext(500, 1, { afterCreating: true });
    const before = fake.emails.size;
    const firstCalls = fake.calls.length;
    expect((await deliver([lone]))[0]).toBeInstanceOf(Error);
    expect(await deliver([others[0], lone, others[1]], 1)).toEqual([null, null, null]);
    expect(fake.emails.size).toBe(before + 3);
    const calls = fake.calls.slice(firstCalls);
    expect(
      calls.filter((call) => call.idempotencyKey === lone.messageId).map((call) => `${call.path} ${call.status}`),
    ).toEqual(["/emails 500", "/emails 200"]);
    expect(calls.find((call) => call.path === "/emails/batch")!.batch).toHaveLength(2);
  });

  it("a validation error of the batch falls back to single sends: only the bad message fails", async () => {
    const jobs = await insertMessages(3);
    const before = fake.calls.length;
    // The batch is refused, then the first single send too (which one is first is not fixed).
    fake.failNext(422, 2, { message: "Invalid `to` field." });
    expect(await deliver(jobs)).toEqual([null, null, null]);
    const calls = fake.calls.slice(before);
    expect(calls.map((call) => `${call.path} ${call.status}`).sort()).toEqual([
      "/emails 200",
      "/emails 200",
      "/emails 422",
      "/emails/batch 422",
    ]);
    const messages = await stored(jobs.map((job) => job.messageId));
    expect(messages.map((message) => message.status).sort()).toEqual(["FAILED", "SUCCEEDED", "SUCCEEDED"]);
    const failed = messages.find((message) => message.status === "FAILED")!;
    const events = await (
      await getDb()
    )
      .select()
      .from(emailMessageLogs)
      .where(eq(emailMessageLogs.emailMessageId, failed.id));
    expect(events.find((event) => event.code === "EMAIL_MESSAGE_PROVIDER_ERROR")?.message).toBe(
      "Resend rejected the message: Invalid `to` field. (HTTP 422, validation_error)",
    );
  });
});
