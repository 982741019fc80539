/**
 * bench:delivery --webhook-endpoint: what one webhook endpoint subscribed to every event costs mail
 * delivery. The delivery-only measurement (messages accepted while the workers are stopped, then
 * resumed) is run in turns without and with an endpoint (a receiver in this process answering 200),
 * in fresh workspaces, twice each (A B A B, so drift in the machine's load falls on both). Each turn
 * reports messages/s to the relay's last 250, and CPU ms per message, counted from resuming the
 * workers until the mail AND every webhook of the turn have arrived: the worker processes, the
 * database's backends serving this database (when the server runs on this machine) and this process
 * (relay stand-in, receiver). CPU is the figure to compare: rates move with whatever else the shared
 * machine runs.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { createEndpoint } from "@/lib/flows/webhooks/manage-endpoints";
import type { RelaySink } from "./relay-sink";
import { seconds } from "./server";

export interface CostWorkers {
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** The worker processes' pids; none when the worker runs in this process. */
  pids: number[];
}

type Accept = (workspaceId: string, count: number, offset: number) => Promise<number>;

interface Turn {
  withEndpoint: boolean;
  rate: number;
  cpuMsPerMessage: number;
  webhooks: number;
}

/** A receiver as small as it gets: 200 at once, counting distinct webhook-ids. */
async function startReceiver() {
  const seen = new Set<string>();
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      seen.add(String(request.headers["webhook-id"]));
      response.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    distinct: () => seen.size,
    reset: () => seen.clear(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** utime + stime in ms of the given processes (clock ticks of 10 ms), skipping any that are gone or not ours to read. */
function procCpuMs(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      total += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // gone, or a database server on another machine
    }
  }
  return total;
}

async function databaseBackends(): Promise<number[]> {
  const db = await getDb();
  const rows = (await db.execute(
    sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
  )) as unknown as Array<{ pid: number }>;
  return rows.map((row) => Number(row.pid));
}

/** CPU ms so far of the workers, this process and (PostgreSQL) the database's backends, per pid so new backends count from zero. */
export async function cpuSnapshot(workers: CostWorkers, postgres: boolean): Promise<Map<string, number>> {
  const snapshot = new Map<string, number>();
  const own = process.cpuUsage();
  snapshot.set("self", (own.user + own.system) / 1000);
  for (const pid of workers.pids) snapshot.set(`w${pid}`, procCpuMs([pid]));
  if (postgres) for (const pid of await databaseBackends()) snapshot.set(`db${pid}`, procCpuMs([pid]));
  return snapshot;
}

/** CPU ms spent between the snapshots: in all, and by the workers, the database and this process. */
export function cpuSpent(before: Map<string, number>, after: Map<string, number>) {
  const spent = { total: 0, workers: 0, database: 0, bench: 0 };
  for (const [key, ms] of after) {
    const delta = ms - (before.get(key) ?? 0);
    spent.total += delta;
    if (key.startsWith("w")) spent.workers += delta;
    else if (key.startsWith("db")) spent.database += delta;
    else spent.bench += delta;
  }
  return spent;
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function webhookEventCount(workspaceId: string): Promise<number> {
  const db = await getDb();
  const rows = (await db.execute(
    sql`select count(*)::int as n from webhook_events where workspace_id = ${workspaceId}`,
  )) as unknown as Array<{ n: number }>;
  return Number(rows[0].n);
}

/** Prints the turns and the comparison: CPU per message and rate, without and with the endpoint. */
export async function measureWebhookCost(
  label: string,
  options: { sink: RelaySink; workers: CostWorkers; accept: Accept; count: number; postgres: boolean },
): Promise<void> {
  const { sink, workers, accept, count } = options;
  const receiver = await startReceiver();
  try {
    // Warm-up with an endpoint, so both paths (mail and webhooks) are compiled before anything is measured.
    const warm = await createTestWorkspace({ name: "Bench warm-up" });
    await createEndpoint(warm.workspace.id, { url: receiver.url }, "bench");
    await accept(warm.workspace.id, 2000, -2000);
    await sink.waitForMessages(2000, 120_000);
    await sink.reset();

    const turns: Turn[] = [];
    for (const withEndpoint of [false, true, false, true]) {
      const { workspace } = await createTestWorkspace({ name: "Bench" });
      if (withEndpoint) await createEndpoint(workspace.id, { url: receiver.url }, "bench");
      await workers.pause();
      await accept(workspace.id, count, turns.length * count);
      receiver.reset();
      const before = await cpuSnapshot(workers, options.postgres);
      const resumed = performance.now();
      await workers.resume();
      await sink.waitForMessages(count, 600_000);
      const mailMs = performance.now() - resumed;
      const expected = withEndpoint ? await webhookEventCount(workspace.id) : 0;
      if (withEndpoint)
        await until(
          async () => receiver.distinct() >= (await webhookEventCount(workspace.id)),
          600_000,
          "the webhooks",
        );
      // Mail first: webhooks wait while the worker delivers mail; how long after the mail they were all in.
      const webhooksAfterMs = performance.now() - resumed - mailMs;
      const after = await cpuSnapshot(workers, options.postgres);
      await sink.reset();
      const spent = cpuSpent(before, after);
      turns.push({
        withEndpoint,
        rate: count / (mailMs / 1000),
        cpuMsPerMessage: spent.total / count,
        webhooks: Math.max(expected, receiver.distinct()),
      });
      const per = (ms: number) => (ms / count).toFixed(2);
      console.log(
        `  ${withEndpoint ? "with an endpoint" : "no endpoint     "}: delivery only ${Math.round(count / (mailMs / 1000))} msg/s (${count} in ${seconds(mailMs)}); ` +
          `${per(spent.total)} CPU ms per message (workers ${per(spent.workers)}, database ${per(spent.database)}, bench process ${per(spent.bench)})` +
          `${withEndpoint ? `; ${turns.at(-1)!.webhooks} webhooks, the last ${seconds(webhooksAfterMs)} after the last message` : ""}`,
      );
    }
    const mean = (withEndpoint: boolean, pick: (turn: Turn) => number) => {
      const chosen = turns.filter((turn) => turn.withEndpoint === withEndpoint).map(pick);
      return chosen.reduce((sum, value) => sum + value, 0) / chosen.length;
    };
    const cpuWithout = mean(false, (turn) => turn.cpuMsPerMessage);
    const cpuWith = mean(true, (turn) => turn.cpuMsPerMessage);
    const rateWithout = mean(false, (turn) => turn.rate);
    const rateWith = mean(true, (turn) => turn.rate);
    console.log(
      `${label}: one endpoint subscribed to every event costs ${(((cpuWith - cpuWithout) / cpuWithout) * 100).toFixed(1)} % more CPU per message ` +
        `(${cpuWithout.toFixed(2)} → ${cpuWith.toFixed(2)} ms, workers${options.postgres ? " + database" : ""} + bench process); ` +
        `delivery only ${Math.round(rateWithout)} → ${Math.round(rateWith)} msg/s (${slowdown(rateWithout, rateWith)})`,
    );
  } finally {
    await receiver.close();
  }
}

/** "12.3 % slower", or "4.5 % faster" when the turns with the endpoint happened to run faster. */
function slowdown(without: number, withEndpoint: number): string {
  const change = (1 - withEndpoint / without) * 100;
  return change >= 0 ? `${change.toFixed(1)} % slower` : `${(-change).toFixed(1)} % faster`;
}
