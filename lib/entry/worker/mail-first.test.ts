import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MailFirst } from "./mail-first";

/** A promise with its resolver, to hold a batch open for as long as a test needs. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A webhook turn that records when it started (on the fake clock) and ran. */
function turnLog() {
  const started: number[] = [];
  return {
    started,
    turn:
      (work: () => Promise<void> = async () => undefined) =>
      async () => {
        started.push(Date.now());
        await work();
      },
  };
}

// The gate is made of timers and Date.now(): on fake timers each test says exactly when a turn runs,
// and a loaded machine's late timer cannot change the answer.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("MailFirst", () => {
  it("runs a webhook turn at once while no mail is being delivered", async () => {
    const gate = new MailFirst({ settleMs: 50, maxWaitMs: 5_000 });
    const log = turnLog();
    const start = Date.now();
    const ran = gate.afterMail(log.turn());
    await vi.advanceTimersByTimeAsync(0);
    expect(log.started).toEqual([start]);
    await ran;
  });

  it("holds webhook turns while a delivery batch runs, and runs them once mail has been idle for the settle time", async () => {
    const gate = new MailFirst({ settleMs: 50, maxWaitMs: 5_000 });
    const batch = deferred();
    const delivering = gate.delivering(() => batch.promise);
    const log = turnLog();
    const waiting = gate.afterMail(log.turn());
    await vi.advanceTimersByTimeAsync(150);
    expect(log.started).toHaveLength(0);
    const finished = Date.now();
    batch.resolve();
    await delivering;
    await vi.advanceTimersByTimeAsync(49);
    expect(log.started, "still within the settle time").toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(log.started).toEqual([finished + 50]);
  });

  it("does not take the gap between two batches of a backlog for idleness", async () => {
    const gate = new MailFirst({ settleMs: 1_000, maxWaitMs: 10_000 });
    const first = deferred();
    const running = gate.delivering(() => first.promise);
    const log = turnLog();
    const waiting = gate.afterMail(log.turn());
    first.resolve();
    await running;
    await vi.advanceTimersByTimeAsync(20);
    const second = deferred();
    const next = gate.delivering(() => second.promise);
    await vi.advanceTimersByTimeAsync(1_100);
    expect(log.started).toHaveLength(0);
    const finished = Date.now();
    second.resolve();
    await next;
    await vi.advanceTimersByTimeAsync(1_000);
    await waiting;
    expect(log.started).toEqual([finished + 1_000]);
  });

  it("past the bound, under mail that never pauses, lets webhook turns through one at a time", async () => {
    const gate = new MailFirst({ settleMs: 50, maxWaitMs: 200 });
    const batch = deferred();
    const delivering = gate.delivering(() => batch.promise);
    let running = 0;
    let most = 0;
    const log = turnLog();
    const start = Date.now();
    const turn = log.turn(async () => {
      most = Math.max(most, ++running);
      await sleep(30);
      running--;
    });
    const turns = Promise.all([gate.afterMail(turn), gate.afterMail(turn), gate.afterMail(turn)]);
    await vi.advanceTimersByTimeAsync(199);
    expect(log.started, "before the bound").toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1 + 3 * 30);
    await turns;
    expect(log.started).toEqual([start + 200, start + 230, start + 260]);
    expect(most).toBe(1);
    batch.resolve();
    await delivering;
  });

  it("a failing trickled turn fails alone and does not block the next", async () => {
    const gate = new MailFirst({ settleMs: 50, maxWaitMs: 50 });
    const batch = deferred();
    const delivering = gate.delivering(() => batch.promise);
    const failing = gate.afterMail(async () => Promise.reject(new Error("database gone")));
    const failed = expect(failing).rejects.toThrow("database gone");
    const next = gate.afterMail(async () => "ran");
    await vi.advanceTimersByTimeAsync(50);
    await failed;
    expect(await next).toBe("ran");
    batch.resolve();
    await delivering;
  });

  it("waits for nothing when the bound is 0 (mail first switched off) or once stopped", async () => {
    const off = new MailFirst({ settleMs: 50, maxWaitMs: 0 });
    const held = deferred();
    const running = off.delivering(() => held.promise);
    expect(await off.afterMail(async () => "at once")).toBe("at once");
    held.resolve();
    await running;

    const gate = new MailFirst({ settleMs: 50, maxWaitMs: 60_000 });
    const batch = deferred();
    const delivering = gate.delivering(() => batch.promise);
    const log = turnLog();
    const waiting = gate.afterMail(log.turn());
    await vi.advanceTimersByTimeAsync(100);
    expect(log.started).toHaveLength(0);
    const stopped = Date.now();
    gate.stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(log.started).toEqual([stopped]);
    await waiting;
    batch.resolve();
    await delivering;
  });

  it("passes a delivery batch's result and error through unchanged", async () => {
    const gate = new MailFirst({ settleMs: 10, maxWaitMs: 1_000 });
    expect(await gate.delivering(async () => [null, new Error("x")])).toEqual([null, new Error("x")]);
    await expect(gate.delivering(async () => Promise.reject(new Error("relay down")))).rejects.toThrow("relay down");
  });
});
