import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createTestWorkspace, insertTestMessage, readMessageState } from "@/lib/testing/fixtures";
import type { DeliveryProvider } from "../provider";
import { acceptedSendCommitter, isPlainAcceptance, recordAcceptedSends } from "./6-record-accepted";
import type { DeliveryOutcome } from "./6-record";

const provider: DeliveryProvider = {
  name: "smtp",
  description: "the SMTP relay smtp.test",
  transactional: false,
  confirmsDelivery: false,
  send: async () => ({ outcome: "accepted", referenceId: "unused" }),
};

function accepted(workspaceId: string, id: string, startedAt = new Date(Date.now() - 1000)): DeliveryOutcome {
  return {
    message: { id, workspaceId },
    provider,
    result: { outcome: "accepted", referenceId: `<${id}@example.com>` },
    startedAt,
    attempt: 0,
    lastAttempt: false,
    suppressed: [],
  };
}

describe("recording accepted sends", () => {
  it("records a group in one statement: SUCCEEDED, sentAt, referenceId and one SENT each", async () => {
    const { workspace } = await createTestWorkspace();
    const ids = await Promise.all([1, 2, 3].map(() => insertTestMessage(workspace.id)));
    const startedAt = new Date(Date.now() - 5000);
    const claimed = await recordAcceptedSends(
      await getDb(),
      ids.map((id) => accepted(workspace.id, id, startedAt)),
    );
    expect([...claimed].sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const { message, events } = await readMessageState(id);
      expect(message).toMatchObject({
        status: "SUCCEEDED",
        referenceId: `<${id}@example.com>`,
        sentAt: startedAt,
        deliveredAt: null,
      });
      expect(
        events.map((event) => [event.code, event.message, event.providerEventId, event.details, event.createdAt]),
      ).toEqual([
        [
          "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
          "Sent through the SMTP relay smtp.test.",
          "smtp:sent",
          { provider: "smtp", referenceId: `<${id}@example.com>` },
          startedAt,
        ],
      ]);
    }
  });

  it("claims nothing already recorded, not PENDING, or named with another workspace", async () => {
    const { workspace } = await createTestWorkspace();
    const other = await createTestWorkspace();
    const recorded = await insertTestMessage(workspace.id);
    const failed = await insertTestMessage(workspace.id, { status: "FAILED" });
    const foreign = await insertTestMessage(other.workspace.id);
    const fresh = await insertTestMessage(workspace.id);
    const db = await getDb();
    expect(await recordAcceptedSends(db, [accepted(workspace.id, recorded)])).toEqual(new Set([recorded]));
    const claimed = await recordAcceptedSends(db, [
      accepted(workspace.id, recorded),
      accepted(workspace.id, failed),
      accepted(workspace.id, foreign),
      accepted(workspace.id, fresh),
    ]);
    expect(claimed).toEqual(new Set([fresh]));
    expect((await readMessageState(recorded)).codes).toEqual(["EMAIL_MESSAGE_SENT_PROVIDER_EVENT"]);
    for (const id of [failed, foreign]) {
      const { message, codes } = await readMessageState(id);
      expect(codes).toEqual([]);
      expect(message.referenceId).toBe("");
      expect(message.sentAt).toBeNull();
    }
  });

  it("groups the answers that arrive while a statement runs, each resolved with its own result", async () => {
    const { workspace } = await createTestWorkspace();
    const ids = await Promise.all(Array.from({ length: 12 }, () => insertTestMessage(workspace.id)));
    const taken = await insertTestMessage(workspace.id, { status: "SUCCEEDED" });
    const db = await getDb();
    // The real database, with its statements counted.
    let statements = 0;
    const counted = {
      execute: (query: Parameters<typeof db.execute>[0]) => (statements++, db.execute(query)),
    } as unknown as typeof db;
    const recorder = acceptedSendCommitter(counted);
    const results = await Promise.all([...ids, taken].map((id) => recorder.submit(accepted(workspace.id, id))));
    expect(results).toEqual([...ids.map(() => true), false]);
    // The first answer is written at once; the twelve that came while it ran go in one more statement.
    expect(statements).toBe(2);
    for (const id of ids) expect((await readMessageState(id)).message.status).toBe("SUCCEEDED");
  });

  it("rejects anything but a plain acceptance (suppressed recipients, a delivery in the answer, failures)", async () => {
    const outcome = accepted("ws", "em");
    expect(isPlainAcceptance(outcome)).toBe(true);
    expect(
      isPlainAcceptance({
        ...outcome,
        suppressed: [{ email: "x@example.org", reason: "UNSUBSCRIBED", group: "News" } as never],
      }),
    ).toBe(false);
    expect(
      isPlainAcceptance({
        ...outcome,
        result: { outcome: "accepted", referenceId: "r", delivered: { at: new Date(), message: "ok" } },
      }),
    ).toBe(false);
    expect(isPlainAcceptance({ ...outcome, result: { outcome: "failed", diagnostic: "550" } })).toBe(false);
    await expect(
      recordAcceptedSends(await getDb(), [{ ...outcome, result: { outcome: "failed", diagnostic: "550" } }]),
    ).rejects.toThrow(/plain acceptances/);
  });
});
