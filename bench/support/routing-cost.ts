/**
 * bench:delivery --routes (docs/delivery.md#routing-and-failover), in each setup:
 * - the cost of routing: the delivery-only measurement in turns (A B A B) of a workspace with no rule (the default
 *   connection, to relay A) and one with 2 connections and 3 rules, the last matching every bench message and naming
 *   relay A with relay B as its fallback (so each message is also bound to its connection before it leaves): CPU ms per
 *   message of the workers, the database and this process, and the rates;
 * - failover: mail accepted at a steady pace through the routed workspace while relay A's connection (behind a TCP
 *   forwarder) is cut: the time from the cut until relay B takes ≥ 90 % of the pace relay A took before it.
 */
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { createConnection } from "@/lib/domain/providers/create-connection";
import { createRule } from "@/lib/domain/providers/create-rule";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { startTcpProxy } from "@/lib/testing/tcp-proxy";
import { startRelaySink, type RelaySink } from "./relay-sink";
import { seconds } from "./server";
import { cpuSnapshot, cpuSpent, type CostWorkers } from "./webhook-cost";

type Accept = (workspaceId: string, count: number, offset: number) => Promise<number>;

interface Options {
  sink: RelaySink;
  workers: CostWorkers;
  accept: Accept;
  count: number;
  postgres: boolean;
}

/** Two connections and three rules; the bench's mail (to example.org, no stream tag) takes the third. */
async function routedWorkspace(primaryUrl: string, fallbackUrl: string): Promise<string> {
  const { workspace } = await createTestWorkspace({ name: "Bench routed" });
  const ws = workspace.id;
  await createConnection(ws, { name: "relay-a", kind: "smtp", url: primaryUrl }, AUDIT_SYSTEM_ACTOR);
  await createConnection(ws, { name: "relay-b", kind: "smtp", url: fallbackUrl }, AUDIT_SYSTEM_ACTOR);
  await createRule(
    ws,
    { name: "Partners", match: { recipientDomains: ["*.partner.test"] }, connections: ["relay-b"] },
    AUDIT_SYSTEM_ACTOR,
  );
  await createRule(
    ws,
    { name: "Bulk", match: { streams: ["bulk"] }, connections: ["relay-b", "relay-a"] },
    AUDIT_SYSTEM_ACTOR,
  );
  await createRule(ws, { name: "Everything", match: {}, connections: ["relay-a", "relay-b"] }, AUDIT_SYSTEM_ACTOR);
  return ws;
}

export async function measureRoutingCost(label: string, options: Options): Promise<void> {
  const { sink, workers, accept, count } = options;
  const fallback = await startRelaySink();
  try {
    const warm = await routedWorkspace(sink.url, fallback.url);
    await accept(warm, 2000, -2000);
    await sink.waitForMessages(2000, 120_000);
    await sink.reset();
    const turns: Array<{ routed: boolean; rate: number; cpu: number }> = [];
    for (const routed of [false, true, false, true]) {
      const ws = routed
        ? await routedWorkspace(sink.url, fallback.url)
        : (await createTestWorkspace({ name: "Bench" })).workspace.id;
      await workers.pause();
      await accept(ws, count, turns.length * count);
      const before = await cpuSnapshot(workers, options.postgres);
      const resumed = performance.now();
      await workers.resume();
      await sink.waitForMessages(count, 600_000);
      const ms = performance.now() - resumed;
      const spent = cpuSpent(before, await cpuSnapshot(workers, options.postgres));
      await sink.reset();
      turns.push({ routed, rate: count / (ms / 1000), cpu: spent.total / count });
      console.log(
        `  ${routed ? "3 rules, 2 connections" : "one connection        "}: delivery only ${Math.round(count / (ms / 1000))} msg/s (${count} in ${seconds(ms)}); ` +
          `${(spent.total / count).toFixed(2)} CPU ms per message (workers ${(spent.workers / count).toFixed(2)}, database ${(spent.database / count).toFixed(2)}, bench process ${(spent.bench / count).toFixed(2)})`,
      );
    }
    const mean = (routed: boolean, pick: (turn: (typeof turns)[number]) => number) =>
      turns.filter((turn) => turn.routed === routed).reduce((sum, turn) => sum + pick(turn), 0) / 2;
    const [cpuOne, cpuRouted] = [mean(false, (turn) => turn.cpu), mean(true, (turn) => turn.cpu)];
    console.log(
      `${label}: routing costs ${(((cpuRouted - cpuOne) / cpuOne) * 100).toFixed(1)} % CPU per message (${cpuOne.toFixed(2)} → ${cpuRouted.toFixed(2)} ms); ` +
        `delivery only ${Math.round(mean(false, (turn) => turn.rate))} → ${Math.round(mean(true, (turn) => turn.rate))} msg/s`,
    );
    await measureFailover(label, options, fallback);
  } finally {
    await fallback.close();
  }
}

/** Mail at a steady pace through relay A behind a forwarder; the forwarder is cut; how soon relay B takes the pace. */
async function measureFailover(label: string, { sink, accept }: Options, fallback: RelaySink): Promise<void> {
  const forwarder = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(sink.url).port) });
  try {
    const ws = await routedWorkspace(`smtp://127.0.0.1:${forwarder.port}`, fallback.url);
    const perTick = 20;
    const tickMs = 100;
    let offset = 10_000_000;
    let running = true;
    const pacer = (async () => {
      while (running) {
        const started = performance.now();
        await accept(ws, perTick, (offset += perTick));
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, tickMs - (performance.now() - started))));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const beforeCut = sink.received();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const pace = (sink.received() - beforeCut) / 2;
    const fallbackAtCut = fallback.received();
    const cut = performance.now();
    forwarder.cut();
    let window = fallbackAtCut;
    let reachedMs = -1;
    while (performance.now() - cut < 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const now = fallback.received();
      // A quarter-second window at ≥ 90 % of the pace per second before the cut.
      if ((now - window) * 4 >= 0.9 * pace) {
        reachedMs = performance.now() - cut;
        break;
      }
      window = now;
    }
    running = false;
    await pacer;
    console.log(
      `${label}: failover: ${Math.round(pace)} msg/s through relay A before the cut; relay B took ≥ 90 % of that pace ` +
        `${reachedMs < 0 ? "not within 60 s" : `${seconds(reachedMs)} after it`}`,
    );
  } finally {
    forwarder.restore();
    await forwarder.close();
    await sink.reset();
    await fallback.reset();
  }
}
