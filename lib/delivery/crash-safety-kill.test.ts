import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessageLogs } from "@/db/schema";
import { createTestWorkspace, insertTestMessage, readMessageState } from "@/lib/testing/fixtures";
import { killDuringDelivery, killWithRecordingHeld, startFastSupervisor } from "@/lib/testing/kill-during-delivery";
import { useSettings } from "@/lib/testing/settings";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { deliverMessages } from "./deliver-batch";
import { closeSmtpTransport } from "./providers/smtp/smtp-provider";
import { getDeliveryProvider } from "./registry";
import { unrecordedGate } from "./unrecorded-gate";

/**
 * Issue #14, item 14: what a SIGKILL can send twice over SMTP is bounded by DELIVERY_MAX_UNRECORDED
 * (lib/delivery/unrecorded-gate.ts; docs/delivery.md "Crash safety"). `npm run bench:crash` measures it
 * on 10,000 messages and several kills; this asserts it.
 */
const saved = {
  DELIVERY_PROVIDER: process.env.DELIVERY_PROVIDER,
  SMTP_URL: process.env.SMTP_URL,
  DELIVERY_MAX_UNRECORDED: process.env.DELIVERY_MAX_UNRECORDED,
};
const serverUrl = process.env.DATABASE_URL;
let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
});

afterAll(async () => {
  closeSmtpTransport();
  await sink.close();
  useSettings(saved);
});

const copiesByMessageId = () => {
  const copies = new Map<string, number>();
  for (const message of sink.messages)
    copies.set(message.messageId ?? "", (copies.get(message.messageId ?? "") ?? 0) + 1);
  return copies;
};

describe("the unrecorded gate", () => {
  it("never lets more messages than DELIVERY_MAX_UNRECORDED be taken by the relay without their SENT committed, though the pool has more connections", async () => {
    // 3 slots, 5 SMTP connections (the default pool): without the gate all 5 would be on the wire at once.
    useSettings({ DELIVERY_PROVIDER: "smtp", SMTP_URL: sink.url, DELIVERY_MAX_UNRECORDED: "3" });
    const { workspace } = await createTestWorkspace();
    const ids = await Promise.all(Array.from({ length: 40 }, () => insertTestMessage(workspace.id)));
    const db = await getDb();
    const taken = () => sink.messages.filter((message) => message.envelope.to.length > 0).length;
    const before = taken();
    let worst = 0;
    // At each DATA, before its 250: the relay's copies not yet recorded, plus this one.
    sink.respond(async () => {
      const [{ sent }] = await db
        .select({ sent: sql<number>`count(*)::int` })
        .from(emailMessageLogs)
        .where(
          and(
            eq(emailMessageLogs.workspaceId, workspace.id),
            eq(emailMessageLogs.code, "EMAIL_MESSAGE_SENT_PROVIDER_EVENT"),
          ),
        );
      worst = Math.max(worst, taken() - before - sent + 1);
      return undefined;
    });
    try {
      const provider = getDeliveryProvider();
      const outcomes = await deliverMessages(
        ids.map((messageId) => ({ job: { workspaceId: workspace.id, messageId }, context: { attempt: 0, provider } })),
      );
      expect(outcomes).toEqual(ids.map(() => null));
    } finally {
      sink.respond(undefined);
    }
    for (const id of ids) expect((await readMessageState(id)).message.status).toBe("SUCCEEDED");
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeLessThanOrEqual(3);
    expect(unrecordedGate().stats()).toMatchObject({ unrecorded: 0, highest: 3 });
  });
});

describe.skipIf(!serverUrl)(
  "SIGKILL of a worker process mid-delivery (PostgreSQL; a worker process cannot open the embedded database)",
  () => {
    it("500 messages, the recording held back so the window is full at the kill: 0 lost, duplicates ≤ DELIVERY_MAX_UNRECORDED, one extra copy at most", async () => {
      const bound = 8;
      useSettings({ DELIVERY_MAX_UNRECORDED: undefined });
      const stopSupervisor = await startFastSupervisor(serverUrl!);
      const before = sink.messages.length;
      const delivered = () => sink.messages.length - before;
      try {
        const result = await killDuringDelivery({
          databaseUrl: serverUrl!,
          workerEnv: { DELIVERY_PROVIDER: "smtp", SMTP_URL: sink.url, DELIVERY_MAX_UNRECORDED: String(bound) },
          count: 500,
          delivered,
          killAfter: 100,
          killWith: killWithRecordingHeld(delivered),
          timeoutMs: 120_000,
        });
        expect(result.unsettled).toBe(0);
        const copies = copiesByMessageId();
        const headerOf = (id: string) => `<${id}@example.com>`;
        expect(result.ids.filter((id) => !copies.has(headerOf(id)))).toEqual([]);
        const duplicated = result.ids.filter((id) => copies.get(headerOf(id))! > 1);
        expect(duplicated.every((id) => copies.get(headerOf(id)) === 2)).toBe(true);
        expect(duplicated.length).toBeLessThanOrEqual(bound);
        // The relay kept taking messages while the recording was held, until the gate was full.
        expect(result.deliveredAtKill).toBeGreaterThanOrEqual(100);
        console.log(
          `SIGKILL at ${result.deliveredAtKill}/500 taken, recording held: all SUCCEEDED ${(result.recoveredMs / 1000).toFixed(1)} s later; ` +
            `duplicates ${duplicated.length} (bound ${bound})`,
        );
      } finally {
        await stopSupervisor();
      }
    }, 180_000);
  },
);
