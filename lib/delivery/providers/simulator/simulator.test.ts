import { eq } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { suppressions, workspaces } from "@/db/schema";
import { AppError } from "@/lib/foundation/errors";
import { sendMessage } from "@/lib/sending/send-message";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { startSmtpSink } from "@/lib/testing/smtp-sink";
import { useSettings } from "@/lib/testing/settings";
import { waitFor } from "@/lib/testing/wait-for";
import { startWorkers, stopWorkers } from "@/lib/entry/worker/worker";
import { closeSmtpTransport } from "../smtp/smtp-provider";
import { simulateOutcome } from "./simulate-outcome";

/** docs/delivery.md#the-outcome-simulator: each address's outcome through the real worker loop. */
const SENT = "EMAIL_MESSAGE_SENT_PROVIDER_EVENT";
const DELIVERED = "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT";
const BOUNCE = "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT";
const saved = { DELIVERY_PROVIDER: process.env.DELIVERY_PROVIDER, SMTP_URL: process.env.SMTP_URL };

afterEach(async () => {
  await stopWorkers();
});

afterAll(() => {
  closeSmtpTransport();
  useSettings(saved);
});

const run = Date.now().toString(36);
const HTML = '<p>Hi, <a href="https://example.com/orders/42?ref=mail&amp;x=1">see your order</a></p>';

async function send(workspaceId: string, to: string, extra: Record<string, unknown> = {}): Promise<string> {
  const { message } = await sendMessage({
    workspaceId,
    sandbox: false,
    body: { from: "hello@example.com", to, subject: "Simulated", bodyHtml: HTML, ...extra },
  });
  return message.id;
}

/** The message's codes after CREATED and RENDERED, once `last` is among them. */
async function codesUntil(messageId: string, last: string, count = 1): Promise<string[]> {
  const { codes } = await waitFor(
    async () => {
      const state = await readMessageState(messageId);
      return state.codes.filter((code) => code === last).length >= count && state;
    },
    { what: `${last} on ${messageId}`, every: 100 },
  );
  return codes.slice(2);
}

async function suppressedAddresses(workspaceId: string): Promise<Array<{ email: string; reason: string }>> {
  const db = await getDb();
  const rows = await db
    .select({ email: suppressions.email, reason: suppressions.reason })
    .from(suppressions)
    .where(eq(suppressions.workspaceId, workspaceId));
  return rows.sort((a, b) => a.email.localeCompare(b.email));
}

describe("the outcome simulator", () => {
  it("produces every outcome through the worker loop, with timestamps and suppressions", async () => {
    useSettings({ DELIVERY_PROVIDER: "local" });
    const { workspace } = await createTestWorkspace();
    await startWorkers({ pollingIntervalSeconds: 0.5 });
    const at = (name: string) => `${name}+${run}@simulator.postwerk.test`;
    const ids = {
      delivered: await send(workspace.id, at("delivered")),
      bounced: await send(workspace.id, `Ada <${at("bounced")}>`),
      soft: await send(workspace.id, at("soft-bounced")),
      complained: await send(workspace.id, at("complained")),
      delayed: await send(workspace.id, at("delayed")),
      opened: await send(workspace.id, at("opened")),
      clicked: await send(workspace.id, at("clicked")),
    };

    expect(await codesUntil(ids.delivered, DELIVERED)).toEqual([SENT, DELIVERED]);
    expect(await codesUntil(ids.bounced, BOUNCE)).toEqual([SENT, BOUNCE]);
    expect(await codesUntil(ids.soft, BOUNCE)).toEqual([SENT, BOUNCE]);
    expect(await codesUntil(ids.complained, "EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT")).toEqual([
      SENT,
      DELIVERED,
      "EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT",
    ]);
    expect(await codesUntil(ids.delayed, DELIVERED)).toEqual([
      SENT,
      "EMAIL_MESSAGE_DELIVERY_DELAYED_PROVIDER_EVENT",
      DELIVERED,
    ]);
    expect(await codesUntil(ids.opened, "EMAIL_MESSAGE_OPEN_PROVIDER_EVENT")).toEqual([
      SENT,
      DELIVERED,
      "EMAIL_MESSAGE_OPEN_PROVIDER_EVENT",
    ]);
    expect(await codesUntil(ids.clicked, "EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT")).toEqual([
      SENT,
      DELIVERED,
      "EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT",
    ]);

    const bounced = await readMessageState(ids.bounced);
    expect(bounced.events[2].message).toMatch(/^Sent through the outcome simulator\.$/);
    expect(bounced.events[3].message).toContain(`Bounced (Permanent, General) for ${at("bounced")}`);
    expect(bounced.events[3].details).toMatchObject({
      provider: "simulator",
      simulated: true,
      bounceType: "Permanent",
    });
    expect(bounced.message.firstBouncedAt?.getTime()).toBe(bounced.events[3].createdAt.getTime());
    expect(bounced.message.deliveredAt).toBeNull();
    expect(bounced.inbox).toHaveLength(1);

    const soft = await readMessageState(ids.soft);
    expect(soft.events[3].details).toMatchObject({ bounceType: "Transient" });
    const delayed = await readMessageState(ids.delayed);
    expect(delayed.message.deliveredAt!.getTime()).toBeGreaterThan(delayed.events[3].createdAt.getTime());
    const complained = await readMessageState(ids.complained);
    expect(complained.message.firstComplainedAt).not.toBeNull();
    expect((await readMessageState(ids.opened)).message.firstOpenedAt).not.toBeNull();
    const clicked = await readMessageState(ids.clicked);
    expect(clicked.message.firstClickedAt).not.toBeNull();
    expect(clicked.events.at(-1)!.details).toMatchObject({ link: "https://example.com/orders/42?ref=mail&x=1" });

    // Only the hard bounce and the complaint are listed, each with its +tag address.
    expect(await suppressedAddresses(workspace.id)).toEqual([
      { email: at("bounced"), reason: "HARD_BOUNCE" },
      { email: at("complained"), reason: "COMPLAINT" },
    ]);
    // The suppressed address is not mailed again: a fresh +tag is.
    const again = await send(workspace.id, at("bounced"));
    expect(await codesUntil(again, "EMAIL_MESSAGE_SUPPRESSED")).toEqual(["EMAIL_MESSAGE_SUPPRESSED"]);
  }, 60_000);

  it("records each report once when its job runs twice", async () => {
    useSettings({ DELIVERY_PROVIDER: "local" });
    const { workspace } = await createTestWorkspace();
    await startWorkers({ pollingIntervalSeconds: 0.5 });
    const address = `complained+twice${run}@simulator.postwerk.test`;
    const id = await send(workspace.id, address);
    await codesUntil(id, "EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT");
    await stopWorkers();
    for (const round of [0, 1])
      await simulateOutcome({ workspaceId: workspace.id, messageId: id, recipients: [address], round });
    await Promise.all(
      [0, 1].map((round) =>
        simulateOutcome({ workspaceId: workspace.id, messageId: id, recipients: [address], round }),
      ),
    );
    // A later round run alone (its earlier round lost or late) records the earlier steps first, in order.
    const late = `delayed+late${run}@simulator.postwerk.test`;
    const lateId = await send(workspace.id, late);
    await simulateOutcome({ workspaceId: workspace.id, messageId: lateId, recipients: [late], round: 1 });
    expect((await readMessageState(lateId)).codes.slice(2)).toEqual([
      "EMAIL_MESSAGE_DELIVERY_DELAYED_PROVIDER_EVENT",
      DELIVERED,
    ]);
    expect((await readMessageState(id)).codes.slice(2)).toEqual([
      SENT,
      DELIVERED,
      "EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT",
    ]);
    expect(await suppressedAddresses(workspace.id)).toEqual([{ email: address, reason: "COMPLAINT" }]);
  }, 30_000);

  it("pauses the workspace when simulated bounces pass the automatic pause's rate", async () => {
    useSettings({ DELIVERY_PROVIDER: "local", AUTO_PAUSE_MIN_MESSAGES: "2", AUTO_PAUSE_BOUNCE_RATE: "0.5" });
    try {
      const { workspace } = await createTestWorkspace();
      await startWorkers({ pollingIntervalSeconds: 0.5 });
      const ids = [
        await send(workspace.id, `bounced+pause1${run}@simulator.postwerk.test`),
        await send(workspace.id, `bounced+pause2${run}@simulator.postwerk.test`),
      ];
      for (const id of ids) await codesUntil(id, BOUNCE);
      const db = await getDb();
      // The pause check runs after the bounce is recorded (coalesced per workspace), not in its transaction.
      const row = await waitFor(
        async () => {
          const [state] = await db
            .select({ paused: workspaces.sendingPaused, reason: workspaces.pausedReason })
            .from(workspaces)
            .where(eq(workspaces.id, workspace.id));
          return state.paused ? state : null;
        },
        { what: "the workspace paused by its bounce rate" },
      );
      expect(row.paused).toBe(true);
      expect(row.reason).toMatch(/bounce/i);
    } finally {
      useSettings({ AUTO_PAUSE_MIN_MESSAGES: undefined, AUTO_PAUSE_BOUNCE_RATE: undefined });
    }
  }, 30_000);

  it("never hands a simulator address to a real SMTP relay", async () => {
    const sink = await startSmtpSink();
    try {
      useSettings({ DELIVERY_PROVIDER: "smtp", SMTP_URL: sink.url });
      const { workspace } = await createTestWorkspace();
      await startWorkers({ pollingIntervalSeconds: 0.5 });
      const simulated = await send(workspace.id, `bounced+relay${run}@simulator.postwerk.test`, {
        bcc: `delivered@SIMULATOR.postwerk.test`,
      });
      const real = await send(workspace.id, "ada@example.org");
      await sink.waitForMessages(1);
      // Round 0 reports each recipient in envelope order: the bounce of `to`, then the delivery of `bcc`.
      expect(await codesUntil(simulated, DELIVERED)).toEqual([SENT, BOUNCE, DELIVERED]);
      expect((await readMessageState(simulated)).events[2].details).toMatchObject({ provider: "simulator" });
      expect((await readMessageState(real)).events[2].details).toMatchObject({ provider: "smtp" });
      // The relay saw the real message and nothing else.
      expect(sink.messages.map((message) => message.envelope.to)).toEqual([["ada@example.org"]]);
      expect(
        sink.messages.some((message) =>
          message.raw.toString("latin1").toLowerCase().includes("simulator.postwerk.test"),
        ),
      ).toBe(false);
    } finally {
      await stopWorkers();
      await sink.close();
    }
  }, 30_000);

  it("refuses an unknown local part and a mix with real recipients at accept, naming the field", async () => {
    const { workspace } = await createTestWorkspace();
    const refusal = (to: string, extra: Record<string, unknown> = {}) =>
      send(workspace.id, to, extra).then(
        () => null,
        (error: unknown) => error,
      );
    const unknown = await refusal("ada@example.org", { cc: ["x@example.org", "bounce@simulator.postwerk.test"] });
    expect(unknown).toBeInstanceOf(AppError);
    expect(unknown).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR", param: "cc[1]" });
    expect((unknown as Error).message).toContain("does not know: use delivered, bounced, soft-bounced");
    const mixed = await refusal("bounced@simulator.postwerk.test", { bcc: "ada@example.org" });
    expect(mixed).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR", param: "bcc" });
    // Other domains that merely look alike are ordinary recipients.
    await expect(send(workspace.id, "bounced@simulator.postwerk.test.example.org")).resolves.toMatch(/^em_/);
  });

  it("lets a workspace in test mode send to the simulator", async () => {
    const { workspace } = await createTestWorkspace({ testMode: true });
    await expect(send(workspace.id, "delivered+testmode@simulator.postwerk.test")).resolves.toMatch(/^em_/);
    await expect(send(workspace.id, "ada@example.org")).rejects.toMatchObject({
      code: "EMAIL_MESSAGE_INVALID_TEST_MODE_RECIPIENT_ERROR",
    });
  });
});
