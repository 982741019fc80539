/**
 * npm run bench:smtp [-- --count 2000 --connections 8 --rounds 2 --only postgres|pglite]
 *
 * Messages/s accepted over SMTP (8 concurrent nodemailer connections, each sending its share one
 * message after another on one connection, as a pooled mailer does) against the same messages over
 * POST /v1/email_messages (8 concurrent keep-alive HTTP connections), in the same run, on the same
 * server process (bench/support/submission-server.ts), with that process's CPU time per message.
 * PostgreSQL (a scratch database) and PGlite. Target: SMTP at least 80 % of the API's rate.
 * A benchmark, not a test.
 */
import { fork, type ChildProcess } from "node:child_process";
import { parseArgs } from "node:util";
import nodemailer from "nodemailer";
import { BENCH_AUTH, BENCH_KEY_USERNAME, BENCH_KEY, scratchPostgres, sendBody, tempDir } from "./support/server";

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "2000" },
    connections: { type: "string", default: "8" },
    rounds: { type: "string", default: "2" },
    only: { type: "string" },
    "pg-url": {
      type: "string",
      default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
  },
});
const COUNT = Number(args.count);
const CONNECTIONS = Number(args.connections);
const ROUNDS = Number(args.rounds);
const PASSWORD = BENCH_KEY.slice(BENCH_KEY.indexOf(":") + 1);

interface Server {
  smtpPort: number;
  apiPort: number;
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const child: ChildProcess = fork("bench/support/submission-server.ts", [], {
    execArgv: ["--conditions=react-server", "--import", "tsx"],
    env: { ...process.env, LOG_LEVEL: "warn", RATE_LIMIT_PER_SECOND: "0", RUN_WORKER: "false", ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ready = await new Promise<{ smtpPort: number; apiPort: number }>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)));
    child.on(
      "message",
      (message: { ready?: boolean; smtpPort: number; apiPort: number }) => message.ready && resolve(message),
    );
  });
  return {
    ...ready,
    cpuMs: () =>
      new Promise((resolve) => {
        child.once("message", (message: { cpu: NodeJS.CpuUsage }) =>
          resolve((message.cpu.user + message.cpu.system) / 1000),
        );
        child.send("cpu");
      }),
    stop: async () => {
      child.removeAllListeners("exit");
      child.kill("SIGKILL");
      if (child.exitCode === null && child.signalCode === null)
        await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

/** `count` messages split over CONNECTIONS lanes, each lane sending one after another. */
async function lanes(count: number, send: (lane: number, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, lane) => {
      for (let i = next++; i < count; i = next++) await send(lane, i);
    }),
  );
}

async function overApi(server: Server, count: number, offset: number) {
  const url = `http://127.0.0.1:${server.apiPort}/v1/email_messages`;
  await lanes(count, async (_lane, i) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { authorization: BENCH_AUTH, "content-type": "application/json" },
      body: JSON.stringify(sendBody(offset + i)),
    });
    if (response.status !== 201) throw new Error(`the API answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  });
}

async function overSmtp(server: Server, count: number, offset: number) {
  const transports = Array.from({ length: CONNECTIONS }, () =>
    nodemailer.createTransport({
      host: "127.0.0.1",
      port: server.smtpPort,
      ignoreTLS: true,
      pool: true,
      maxConnections: 1,
      maxMessages: Infinity,
      auth: { user: BENCH_KEY_USERNAME, pass: PASSWORD },
    }),
  );
  try {
    await lanes(count, async (lane, i) => {
      const body = sendBody(offset + i);
      const info = await transports[lane].sendMail({
        from: body.from,
        to: body.to,
        subject: body.subject,
        html: body.bodyHtml,
      });
      if (!info.response.startsWith("250 2.0.0 OK em_")) throw new Error(`SMTP answered ${info.response}`);
    });
  } finally {
    transports.forEach((transport) => transport.close());
  }
}

async function measure(
  server: Server,
  door: (server: Server, count: number, offset: number) => Promise<void>,
  offset: number,
) {
  const cpuBefore = await server.cpuMs();
  const started = performance.now();
  await door(server, COUNT, offset);
  const seconds = (performance.now() - started) / 1000;
  const cpu = (await server.cpuMs()) - cpuBefore;
  return { rate: COUNT / seconds, cpuPerMessage: cpu / COUNT };
}

async function benchmark(label: string, env: Record<string, string>) {
  const server = await startServer(env);
  try {
    await overApi(server, 200, 0); // warm-up passes, not reported
    await overSmtp(server, 200, 0);
    const totals = { api: 0, smtp: 0 };
    for (let round = 1; round <= ROUNDS; round++) {
      const api = await measure(server, overApi, round * 2 * COUNT);
      const smtp = await measure(server, overSmtp, (round * 2 + 1) * COUNT);
      totals.api += api.rate;
      totals.smtp += smtp.rate;
      const line = (name: string, result: { rate: number; cpuPerMessage: number }) =>
        `${name} ${result.rate.toFixed(0)} msg/s, ${result.cpuPerMessage.toFixed(2)} ms CPU/msg`;
      console.log(
        `${label} round ${round} (${COUNT} messages, ${CONNECTIONS} connections): ${line("API", api)}; ${line("SMTP", smtp)}; SMTP/API ${((smtp.rate / api.rate) * 100).toFixed(0)} %`,
      );
    }
    console.log(
      `${label}: SMTP reaches ${((totals.smtp / totals.api) * 100).toFixed(0)} % of the API's rate over ${ROUNDS} rounds (target ≥ 80 %)`,
    );
  } finally {
    await server.stop();
  }
}

async function main() {
  if (args.only !== "pglite") {
    const database = await scratchPostgres(args["pg-url"]!);
    if (database) {
      const dataDir = tempDir();
      try {
        await benchmark("postgres", { DATABASE_URL: database.url, DATA_DIR: dataDir.dir });
      } finally {
        await database.drop();
        dataDir.remove();
      }
    }
  }
  if (args.only !== "postgres") {
    const embedded = tempDir();
    try {
      await benchmark("pglite", { DATA_DIR: embedded.dir, DATABASE_URL: "" });
    } finally {
      embedded.remove();
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
