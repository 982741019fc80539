import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getQueue } from "@/lib/records/queue/queue";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { createConnection } from "@/lib/domain/providers/create-connection";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { acceptMail, deliverOnce, routingRule } from "@/lib/testing/routing";
import { startWorkerProcess } from "@/lib/testing/worker-process";
import { waitFor } from "@/lib/testing/wait-for";
import { forgetDkimKeys } from "@/lib/delivery/mime/dkim-keys";
import { closeSmtpTransport } from "@/lib/delivery/providers/smtp/smtp-provider";

/** A connection's rate and concurrency hold across runs and processes (docs/delivery.md#limits-per-connection). */
const saved = { PROVIDERS_ALLOW_PRIVATE: process.env.PROVIDERS_ALLOW_PRIVATE };
let relay: SmtpSink;
/** Hand-offs the relay holds at once (its answer waits 150 ms), and the most it ever held. */
let held = 0;
let mostHeld = 0;
const arrivals: number[] = [];

beforeAll(async () => {
  relay = await startSmtpSink({
    responder: async () => {
      arrivals.push(Date.now());
      mostHeld = Math.max(mostHeld, ++held);
      await new Promise((resolve) => setTimeout(resolve, 150));
      held--;
      return undefined;
    },
  });
  useSettings({ PROVIDERS_ALLOW_PRIVATE: "true" });
});

afterAll(async () => {
  closeSmtpTransport();
  await relay.close();
  useSettings(saved);
  forgetDkimKeys();
});

async function limitedWorkspace(limits: { ratePerSecond?: number; concurrency?: number }) {
  const { workspace } = await createTestWorkspace();
  await createConnection(
    workspace.id,
    { name: "shared-relay", kind: "smtp", url: relay.url, ...limits },
    AUDIT_SYSTEM_ACTOR,
  );
  await routingRule(workspace.id, { match: {}, connections: ["shared-relay"] });
  return workspace.id;
}

const reset = () => {
  arrivals.length = 0;
  mostHeld = 0;
};

describe("limits per connection", () => {
  it("two runs at once keep to the connection's concurrency", async () => {
    reset();
    const ws = await limitedWorkspace({ concurrency: 2 });
    const ids = await Promise.all(Array.from({ length: 8 }, () => acceptMail(ws, "ada@example.org")));
    const results = await Promise.all(ids.map((id) => deliverOnce(ws, id)));
    expect(results.every((error) => error === null)).toBe(true);
    expect(arrivals).toHaveLength(8);
    expect(mostHeld).toBeLessThanOrEqual(2);
  });

  it("runs at once keep to the connection's rate: at most that many a second", async () => {
    reset();
    const ws = await limitedWorkspace({ ratePerSecond: 3 });
    const ids = await Promise.all(Array.from({ length: 9 }, () => acceptMail(ws, "ada@example.org")));
    const results = await Promise.all(ids.map((id) => deliverOnce(ws, id)));
    expect(results.every((error) => error === null)).toBe(true);
    expect(arrivals).toHaveLength(9);
    // Windows are whole seconds of the clock: 9 at 3 a second need three windows, so the last leaves at least a
    // second after the first; unlimited, all 9 arrive within a few tens of milliseconds. The bound is lower than a
    // second because arrivals are not departures: the first one's new SMTP connection can delay it by more than the
    // last one's (CI once saw 992 ms). Nor are arrivals compared per second: a loaded machine delays them into the
    // next second without the rate being broken.
    expect(Math.max(...arrivals) - Math.min(...arrivals)).toBeGreaterThanOrEqual(700);
    for (const id of ids) expect((await readMessageState(id)).message.status).toBe("SUCCEEDED");
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "two `npm run worker` processes share one connection's concurrency",
    async () => {
      reset();
      const ws = await limitedWorkspace({ concurrency: 2 });
      const workers = [0, 1].map(() =>
        startWorkerProcess({ PROVIDERS_ALLOW_PRIVATE: "true", WORKER_CONCURRENCY: "4" }),
      );
      try {
        await Promise.all(workers.map((worker) => worker.started));
        await getQueue();
        // A trickle, so both processes' pollers find jobs (one alone would claim a whole burst at once). Which
        // poller finds a pair is the scheduler's choice: the trickle goes on until both have handed mail over, so the
        // test proves the limit across processes however fast the machine is.
        const handedBy = () =>
          workers.map(
            (worker) => worker.lines().filter((line) => line.message === "messages handed to provider").length,
          );
        const ids: string[] = [];
        await waitFor(
          async () => {
            ids.push(...(await Promise.all([0, 1].map(() => acceptMail(ws, "ada@example.org")))));
            await new Promise((resolve) => setTimeout(resolve, 300));
            return ids.length >= 16 && Math.min(...handedBy()) > 0;
          },
          { what: "both processes to hand mail over", timeout: 40_000, every: 0 },
        );
        await waitFor(async () => arrivals.length >= ids.length, { what: `${ids.length} hand-offs`, timeout: 30_000 });
        expect(mostHeld).toBeLessThanOrEqual(2);
        expect(Math.min(...handedBy()), "both processes handed mail over").toBeGreaterThan(0);
      } finally {
        await Promise.all(workers.map((worker) => worker.stop()));
      }
    },
    90_000,
  );
});
