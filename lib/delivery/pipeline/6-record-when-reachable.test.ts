import { afterEach, describe, expect, it, vi } from "vitest";
import { recordWhenReachable } from "./6-record-when-reachable";

// The schedule of retries on a fake clock; outage-recording.test.ts cuts a real database.
const unavailable = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

/** A write that fails as an unreachable database does until `back` (fake time), then records. */
function writeFailingUntil(back: number) {
  const write = {
    recordedAt: 0,
    run: async () => {
      if (Date.now() < back) throw unavailable();
      write.recordedAt = Date.now();
    },
  };
  return write;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("recordWhenReachable", () => {
  it("records within a second of the database's return, however long the outage", async () => {
    vi.useFakeTimers();
    for (const outage of [1_500, 10 * 60_000]) {
      const back = Date.now() + outage;
      const write = writeFailingUntil(back);
      const done = recordWhenReachable("em_test", write.run);
      await vi.advanceTimersByTimeAsync(outage + 1_000);
      expect(write.recordedAt).toBeGreaterThanOrEqual(back);
      expect(write.recordedAt - back).toBeLessThanOrEqual(1_000);
      await done;
    }
  });

  it("throws at once an error that is not an outage, and an outage longer than the hold", async () => {
    vi.useFakeTimers();
    const wrong = recordWhenReachable("em_test", async () => {
      throw new Error("duplicate key value violates unique constraint");
    });
    await expect(wrong).rejects.toThrow("duplicate key");

    const endless = recordWhenReachable("em_test", async () => {
      throw unavailable();
    });
    const failed = expect(endless).rejects.toThrow("ECONNREFUSED");
    await vi.advanceTimersByTimeAsync(16 * 60_000);
    await failed;
  });
});
