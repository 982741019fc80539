import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeResend, type FakeResend } from "@/lib/testing/fake-resend";
import { killDuringDelivery, killWithRecordingHeld, startFastSupervisor } from "@/lib/testing/kill-during-delivery";

/**
 * Issue #14, item 14: with Resend a SIGKILL sends nothing twice. The worker is killed with Resend's
 * answers in hand and unrecorded (the recording held back, then the kill), so every one of those
 * messages is sent again by the replacement; the stand-in, which honours Idempotency-Key as Resend does
 * (a repeated key replays the first answer, a key reused for another payload is a 409), must have
 * created each email exactly once. PostgreSQL only: a worker process cannot open the embedded database.
 */
const serverUrl = process.env.DATABASE_URL;
const COUNT = 500;
let fake: FakeResend;

beforeAll(async () => {
  fake = await startFakeResend();
});

afterAll(async () => {
  await fake.close();
});

describe.skipIf(!serverUrl)("SIGKILL of a worker mid-batch with the resend provider (PostgreSQL)", () => {
  it("creates each email exactly once: 0 duplicates, 0 lost", async () => {
    const stopSupervisor = await startFastSupervisor(serverUrl!);
    const delivered = () => fake.emails.size;
    try {
      const result = await killDuringDelivery({
        databaseUrl: serverUrl!,
        workerEnv: { DELIVERY_PROVIDER: "resend", RESEND_API_KEY: fake.apiKey, RESEND_BASE_URL: fake.url },
        count: COUNT,
        delivered,
        killAfter: 100,
        killWith: killWithRecordingHeld(delivered),
        timeoutMs: 150_000,
      });
      expect(result.unsettled).toBe(0);
      const subjects = [...fake.emails.values()].map((email) => String(email.subject));
      const copies = new Map<string, number>();
      for (const subject of subjects) copies.set(subject, (copies.get(subject) ?? 0) + 1);
      expect([...copies.values()].filter((n) => n > 1)).toEqual([]);
      expect(copies.size).toBe(COUNT);
      // The replacement did send again what the dead worker had not recorded: the keys made it a replay.
      const replayed = fake.calls.length - new Set(fake.calls.map((call) => call.idempotencyKey)).size;
      console.log(
        `resend: SIGKILL with ${result.deliveredAtKill} emails created, all SUCCEEDED ${(result.recoveredMs / 1000).toFixed(1)} s later; ` +
          `${fake.calls.length} calls, ${replayed} with a key seen before; emails created ${fake.emails.size} for ${COUNT} messages`,
      );
      expect(fake.calls.filter((call) => call.status !== 200)).toEqual([]);
    } finally {
      await stopSupervisor();
    }
  }, 240_000);
});
