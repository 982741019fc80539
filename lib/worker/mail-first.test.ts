import { describe, expect, it } from "vitest";
import { MailFirst } from "./mail-first";

/** A promise with its resolver, to hold a delivery batch open for as long as a test needs. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** Resolves to how long `promise` took, in ms. */
async function timed(promise: Promise<void>): Promise<number> {
  const start = performance.now();
  await promise;
  return performance.now() - start;
}

describe("MailFirst", () => {
  it("lets webhook work go at once while no mail is being delivered", async () => {
    const gate = new MailFirst({ settleMs: 50, maxWaitMs: 5_000 });
    expect(await timed(gate.whenMailIdle())).toBeLessThan(20);
  });

  it("holds webhook work while a delivery batch runs, and releases it once mail has been idle for the settle time", async () => {
    const gate = new MailFirst({ settleMs: 50, maxWaitMs: 5_000 });
    const batch = deferred();
    const delivering = gate.delivering(() => batch.promise);
    let released = false;
    const waiting = gate.whenMailIdle().then(() => (released = true));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(released).toBe(false);
    const finished = performance.now();
    batch.resolve();
    await delivering;
    await waiting;
    expect(performance.now() - finished).toBeGreaterThanOrEqual(45);
  });

  it("does not take the gap between two batches of a backlog for idleness", async () => {
    // A long settle time, so a loaded machine's late timer cannot pass for idleness.
    const gate = new MailFirst({ settleMs: 1_000, maxWaitMs: 10_000 });
    const first = deferred();
    const running = gate.delivering(() => first.promise);
    let released = false;
    const waiting = gate.whenMailIdle().then(() => (released = true));
    first.resolve();
    await running;
    // The next batch starts 20 ms later, within the settle time: the waiter must stay held.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = deferred();
    const next = gate.delivering(() => second.promise);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(released).toBe(false);
    second.resolve();
    await next;
    await waiting;
    expect(released).toBe(true);
  });

  it("never holds webhook work longer than the bound, however long mail keeps flowing", async () => {
    const gate = new MailFirst({ settleMs: 50, maxWaitMs: 200 });
    const batch = deferred();
    const delivering = gate.delivering(() => batch.promise);
    const waited = await timed(gate.whenMailIdle());
    expect(waited).toBeGreaterThanOrEqual(190);
    expect(waited).toBeLessThan(2_000);
    batch.resolve();
    await delivering;
  });

  it("waits for nothing when the bound is 0 (mail first switched off) or once stopped", async () => {
    const off = new MailFirst({ settleMs: 50, maxWaitMs: 0 });
    const held = deferred();
    const running = off.delivering(() => held.promise);
    expect(await timed(off.whenMailIdle())).toBeLessThan(20);
    held.resolve();
    await running;

    const gate = new MailFirst({ settleMs: 50, maxWaitMs: 60_000 });
    const batch = deferred();
    const delivering = gate.delivering(() => batch.promise);
    const waiting = gate.whenMailIdle();
    gate.stop();
    expect(await timed(waiting)).toBeLessThan(50);
    expect(await timed(gate.whenMailIdle())).toBeLessThan(20);
    batch.resolve();
    await delivering;
  });

  it("passes the batch's result and error through unchanged", async () => {
    const gate = new MailFirst({ settleMs: 10, maxWaitMs: 1_000 });
    expect(await gate.delivering(async () => [null, new Error("x")])).toEqual([null, new Error("x")]);
    await expect(gate.delivering(async () => Promise.reject(new Error("relay down")))).rejects.toThrow("relay down");
    expect(await timed(gate.whenMailIdle())).toBeLessThan(100);
  });
});
