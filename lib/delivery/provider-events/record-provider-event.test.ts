import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { suppressions, webhookEvents, workspaces } from "@/db/schema";
import { createTestWorkspace, insertTestMessage, readMessageState } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { recordProviderEvent, type ProviderEvent } from "./record-provider-event";

let workspaceId: string;

beforeAll(async () => {
  workspaceId = (await createTestWorkspace()).workspace.id;
});

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

async function sentMessage(overrides: Parameters<typeof insertTestMessage>[1] = {}, workspace = workspaceId) {
  const referenceId = `ref-${randomUUID()}`;
  const id = await insertTestMessage(workspace, {
    referenceId,
    status: "SUCCEEDED",
    sentAt: minutesAgo(30),
    ...overrides,
  });
  return { id, referenceId };
}

function event(overrides: Partial<ProviderEvent> & Pick<ProviderEvent, "code">): ProviderEvent {
  return {
    source: "simulator",
    type: overrides.code,
    message: "It happened.",
    at: minutesAgo(5),
    providerEventId: `test:${randomUUID()}`,
    details: {},
    ...overrides,
  };
}

const DELIVERED = "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT" as const;
const CLICKED = "EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT" as const;
const BOUNCE = "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT" as const;
const FAILED = "EMAIL_MESSAGE_PROVIDER_ERROR" as const;

describe("recordProviderEvent, reports arriving together (group commit)", () => {
  it("writes each new report's webhook outbox/feed row in its transaction, and none for a duplicate", async () => {
    const own = (await createTestWorkspace()).workspace.id;
    const messages = await Promise.all(Array.from({ length: 4 }, () => sentMessage({}, own)));
    const reports = messages.map(() => event({ code: BOUNCE, suppress: "HARD_BOUNCE" }));
    await Promise.all(messages.map((message, index) => recordProviderEvent({ messageId: message.id }, reports[index])));
    await recordProviderEvent({ messageId: messages[0].id }, reports[0]);
    const db = await getDb();
    for (const message of messages) {
      const rows = await db
        .select({ type: webhookEvents.type, at: webhookEvents.createdAt })
        .from(webhookEvents)
        .where(eq(webhookEvents.emailMessageId, message.id));
      expect(rows).toEqual([{ type: "email.bounced", at: reports[messages.indexOf(message)].at }]);
    }
  });

  it("records each report of a burst once, with its own result, the duplicates of the same burst included", async () => {
    const messages = await Promise.all(Array.from({ length: 12 }, () => sentMessage()));
    const reports = messages.map((message) => ({ message, report: event({ code: DELIVERED, at: minutesAgo(20) }) }));
    const results = await Promise.all([
      ...reports.map(({ message, report }) => recordProviderEvent({ referenceId: message.referenceId }, report)),
      // The same report twice in one burst (SNS retried while the first was still being written).
      recordProviderEvent({ messageId: messages[0].id }, reports[0].report),
      recordProviderEvent({ referenceId: "ref-nobody-knows" }, event({ code: DELIVERED })),
    ]);
    expect(results.slice(0, 12)).toEqual(
      messages.map((message, index) =>
        index === 0
          ? expect.objectContaining({ messageId: message.id })
          : { outcome: "recorded", messageId: message.id },
      ),
    );
    expect([results[0].outcome, results[12].outcome].sort()).toEqual(["duplicate", "recorded"]);
    expect(results[13]).toEqual({ outcome: "unknown-message" });
    for (const { message, report } of reports) {
      const state = await readMessageState(message.id);
      expect(state.codes.filter((code) => code === DELIVERED)).toHaveLength(1);
      expect(state.message.deliveredAt).toEqual(report.at);
    }
  });

  it("combines the effects of one message's reports in one burst as if recorded one by one, in any order", async () => {
    const message = await sentMessage({ status: "PENDING", sentAt: null });
    const clickedLate = event({ code: CLICKED, at: minutesAgo(2) });
    const clickedEarly = event({ code: CLICKED, at: minutesAgo(4) });
    const clickedByBot = event({ code: CLICKED, at: minutesAgo(9), bot: true });
    const delivered = event({ code: DELIVERED, at: minutesAgo(6) });
    const ref = { referenceId: message.referenceId };
    await Promise.all(
      [clickedLate, clickedByBot, delivered, clickedEarly].map((report) => recordProviderEvent(ref, report)),
    );
    const { message: row, codes } = await readMessageState(message.id);
    expect(codes.filter((code) => code === CLICKED)).toHaveLength(3);
    expect(row.status).toBe("SUCCEEDED");
    expect(row.deliveredAt).toEqual(delivered.at);
    expect(row.firstClickedAt).toEqual(clickedEarly.at);
    expect(row.lastClickedAt).toEqual(clickedLate.at);
    // A later Delivery does not move the status back, nor the earlier delivery time.
    await recordProviderEvent(ref, event({ code: DELIVERED, at: minutesAgo(1) }));
    expect((await readMessageState(message.id)).message.deliveredAt).toEqual(delivered.at);
  });

  it("lets a failure win over a delivery in the same burst, and never resurrects a deleted message", async () => {
    const failing = await sentMessage({ status: "PENDING", sentAt: null });
    const deleted = await sentMessage({ status: "DELETED" });
    await Promise.all([
      recordProviderEvent({ referenceId: failing.referenceId }, event({ code: FAILED })),
      recordProviderEvent({ referenceId: failing.referenceId }, event({ code: DELIVERED })),
      recordProviderEvent({ referenceId: deleted.referenceId }, event({ code: FAILED })),
      recordProviderEvent({ referenceId: deleted.referenceId }, event({ code: DELIVERED })),
    ]);
    expect((await readMessageState(failing.id)).message.status).toBe("FAILED");
    expect((await readMessageState(deleted.id)).message.status).toBe("DELETED");
  });

  it("suppresses the bounced recipients of a burst once each, and a bad report fails alone", async () => {
    const db = await getDb();
    const first = await sentMessage({ to: ["Bo <bo@example.org>"], toAddresses: ["bo@example.org"] });
    const second = await sentMessage({ to: ["Bo <bo@example.org>"], toAddresses: ["bo@example.org"] });
    const other = await sentMessage({ to: ["cy@example.org"], toAddresses: ["cy@example.org"] });
    const broken = await sentMessage();
    const bounce = (recipients: string[]) =>
      event({ code: BOUNCE, suppress: "HARD_BOUNCE", recipients, message: "Bounced: 550 5.1.1." });
    const settled = await Promise.allSettled([
      recordProviderEvent({ referenceId: first.referenceId }, bounce(["BO@example.org"])),
      recordProviderEvent({ referenceId: second.referenceId }, bounce(["bo@example.org"])),
      recordProviderEvent({ referenceId: other.referenceId }, bounce(["cy@example.org", "not-sent-to@example.org"])),
      // Details PostgreSQL cannot store (a NUL in jsonb): this report's write fails, the others' stand.
      recordProviderEvent({ referenceId: broken.referenceId }, event({ code: DELIVERED, details: { text: "\u0000" } })),
    ]);
    expect(settled.map((result) => result.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "rejected"]);
    const listed = await db.select().from(suppressions).where(eq(suppressions.workspaceId, workspaceId));
    expect(listed.map((row) => row.email).sort()).toEqual(["bo@example.org", "cy@example.org"]);
    expect(listed.every((row) => row.reason === "HARD_BOUNCE" && row.detail === "Bounced: 550 5.1.1.")).toBe(true);
    for (const message of [first, second, other]) expect((await readMessageState(message.id)).codes).toContain(BOUNCE);
    const brokenState = await readMessageState(broken.id);
    expect(brokenState.codes).not.toContain(DELIVERED);
    const [bo] = await db
      .select()
      .from(suppressions)
      .where(and(eq(suppressions.workspaceId, workspaceId), eq(suppressions.email, "bo@example.org")));
    expect([first.id, second.id]).toContain(bo.emailMessageId);
  });

  it("a burst of bounces pauses the workspace by the time the calls return, counting every bounce of the burst", async () => {
    const saved = {
      AUTO_PAUSE_MIN_MESSAGES: process.env.AUTO_PAUSE_MIN_MESSAGES,
      AUTO_PAUSE_BOUNCE_RATE: process.env.AUTO_PAUSE_BOUNCE_RATE,
    };
    // Only all six bounces of eight messages (75%) pass 70%: a check must have counted the last one.
    useSettings({ AUTO_PAUSE_MIN_MESSAGES: "4", AUTO_PAUSE_BOUNCE_RATE: "0.7" });
    try {
      const other = (await createTestWorkspace()).workspace.id;
      const messages = await Promise.all(Array.from({ length: 8 }, () => sentMessage({}, other)));
      const db = await getDb();
      await Promise.all(
        messages
          .slice(0, 6)
          .map((message) => recordProviderEvent({ referenceId: message.referenceId }, event({ code: BOUNCE }))),
      );
      const [row] = await db
        .select({ paused: workspaces.sendingPaused })
        .from(workspaces)
        .where(eq(workspaces.id, other));
      expect(row.paused).toBe(true);
    } finally {
      useSettings(saved);
    }
  });
});
