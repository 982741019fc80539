import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@/lib/testing/free-port";
import { startOtlpReceiver, type OtlpReceiver } from "@/lib/testing/otlp-receiver";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { waitFor } from "@/lib/testing/wait-for";
import { createDatabase, expectOneTrace, smtpBanner, stop, untilAnswers } from "./artefact-harness";
import { composeCommands } from "./deployment-files";

/**
 * The production artefact (scripts/assemble-artefact.mjs, what the Dockerfile's runtime stage copies),
 * assembled into an empty folder outside the repository, so nothing resolves from the repository's
 * node_modules, and run as compose.yaml runs it on a fresh PostgreSQL database: the migration step,
 * the HTTP server with RUN_WORKER=false, a worker, the SMTP submission and bounce listeners, each a
 * plain `node` process. It builds first when the build is older than the sources, and fails, never
 * skips: no PostgreSQL, no build, no pass.
 */
const root = path.resolve(import.meta.dirname, "..");
const KEY = "key_ARTEFACT00000000:artefact-secret-artefact-secret-artefact";
const AUTH = `Basic ${Buffer.from(KEY).toString("base64")}`;
// The suite's PostgreSQL server when it runs on one, else TEST_DATABASE_URL's (npm run test:unit:pg, .ci/run) or the local one.
const serverUrl = new URL(
  process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
);

let artefact = "";
let otlp: OtlpReceiver;
let hooks: WebhookReceiver;
let dataDir = "";
let database: { url: string; drop: () => Promise<void> } | undefined;
const running: Array<{ name: string; child: ChildProcess; output: string[] }> = [];
const ports = { http: 0, workerHealth: 0, smtp: 0, inbound: 0, inboundHealth: 0 };

beforeAll(async () => {
  artefact = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-artefact-"));
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-artefact-data-"));
  fs.rmdirSync(artefact); // the assembler wants a missing or empty folder: it refuses to mix with leftovers
  const started = performance.now();
  const assembled = spawnSync(process.execPath, ["scripts/assemble-artefact.mjs", "--build-if-stale", artefact], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    timeout: 560_000,
  });
  if (assembled.status !== 0) throw new Error(`assembling the artefact failed (exit ${assembled.status})`);
  const size = spawnSync("du", ["-sh", artefact], { encoding: "utf8" }).stdout.split("\t")[0];
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`artefact: ${size} in ${artefact} (built if stale and assembled in ${seconds} s)`);
  database = await createDatabase(serverUrl);
  otlp = await startOtlpReceiver();
  hooks = await startWebhookReceiver();
  for (const name of Object.keys(ports) as Array<keyof typeof ports>) ports[name] = await freePort();
}, 600_000);

afterAll(async () => {
  await Promise.all(running.map(({ child }) => stop(child)));
  await database?.drop();
  await otlp?.close();
  await hooks?.close();
  for (const dir of [artefact, dataDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** Only what a deployment sets: no NODE_OPTIONS, NODE_PATH or Vitest settings leak in from the test run. */
function environment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: database!.url,
    AUTH_SECRET: "artefact-test-secret-artefact-test-secret",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    ...extra,
  };
  // An empty value leaves the variable unset (the embedded server's DATABASE_URL).
  for (const [name, value] of Object.entries(env)) if (value === "") delete env[name];
  return env;
}

/** Starts `node ARGS` in the artefact, keeping its output for the failure message. */
function start(name: string, args: string[], extra: Record<string, string>) {
  const child = spawn(process.execPath, args, { cwd: artefact, env: environment(extra), stdio: "pipe" });
  const output: string[] = [];
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => output.push(String(chunk)));
  running.push({ name, child, output });
  return { child, output };
}

/** Runs `node ARGS` in the artefact to completion. */
function runInArtefact(args: string[], extra: Record<string, string> = {}) {
  return spawnSync(process.execPath, args, {
    cwd: artefact,
    env: environment(extra),
    encoding: "utf8",
    timeout: 60_000,
  });
}

/** A message to the simulator's delivered address through the server on `port`, accepted (201). */
async function sendToSimulator(port: number, subject: string): Promise<{ id: string }> {
  const sent = await fetch(`http://127.0.0.1:${port}/v1/email_messages`, {
    method: "POST",
    headers: { authorization: AUTH, "content-type": "application/json" },
    body: JSON.stringify({
      from: "Postwerk <test@postwerk.test>",
      to: "delivered@simulator.postwerk.test",
      subject,
      bodyHtml: `<p>${subject}</p>`,
    }),
  });
  const { data: message } = (await sent.json()) as { data: { id: string } };
  expect(sent.status, JSON.stringify(message)).toBe(201);
  return message;
}

describe("the production artefact", () => {
  it("lives outside the repository and carries none of its development packages", () => {
    expect(path.relative(root, artefact).startsWith("..")).toBe(true);
    for (const part of ["server/server.mjs", "dist/cli.mjs", "db/migrations/meta/_journal.json", ".next/static"])
      expect(fs.existsSync(path.join(artefact, part)), part).toBe(true);
    // Nothing of the repository's node_modules is reachable from here: tsx and TypeScript are not there.
    const probe = runInArtefact(["--input-type=module", "-e", "await import('tsx')"]);
    expect(probe.status).not.toBe(0);
    expect(probe.stderr).toMatch(/Cannot find package 'tsx'/);
  });

  it("loads every package the process bundles keep external from its own node_modules", () => {
    const externals = JSON.parse(fs.readFileSync(path.join(artefact, "dist", "externals.json"), "utf8")) as string[];
    expect(externals).toContain("@electric-sql/pglite");
    const loaded = runInArtefact([
      "--input-type=module",
      "-e",
      `for (const name of ${JSON.stringify(externals)}) await import(name); console.log("loaded")`,
    ]);
    expect(loaded.stderr).toBe("");
    expect(loaded.stdout.trim()).toBe("loaded");
  });

  it("runs compose.yaml's commands: the CLI migrates, the app, a worker and both listeners answer; one message is one trace across the app and the worker", async () => {
    const version = runInArtefact(["dist/cli.mjs", "--version"]);
    const packageJson = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
    expect(version.stdout.trim()).toBe(packageJson.version);
    // compose.yaml's own commands, so a renamed file fails here as it would in the container.
    const commands = composeCommands();
    for (const command of Object.values(commands))
      expect(fs.existsSync(path.join(artefact, command[1])), command[1]).toBe(true);
    const migrated = runInArtefact(commands.migrate.slice(1));
    expect(migrated.status, migrated.stderr).toBe(0);

    // Traces as an operator turns them on (docs/observability.md), into a real OTLP/HTTP receiver; webhooks to a real one.
    const traced = {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "200",
      WEBHOOKS_ALLOW_PRIVATE: "true",
      WEBHOOKS_ALLOW_HTTP: "true",
    };
    const app = start("the app", [...commands.app.slice(1), "--hostname", "127.0.0.1", "--port", String(ports.http)], {
      RUN_WORKER: "false",
      SEED_API_KEY: KEY,
      SEED_DEMO: "true",
      ...traced,
    });
    const worker = start("the worker", commands.worker.slice(1), {
      WORKER_HEALTH_PORT: String(ports.workerHealth),
      ...traced,
    });
    const smtp = start("the SMTP submission listener", commands.smtp.slice(1), {
      SMTP_SUBMISSION_PORT: String(ports.smtp),
      SMTP_SUBMISSION_HOST: "127.0.0.1",
      SMTP_ALLOW_INSECURE_AUTH: "true",
    });
    const inbound = start("the bounce listener", commands.inbound.slice(1), {
      SMTP_INBOUND_PORT: String(ports.inbound),
      SMTP_INBOUND_HOST: "127.0.0.1",
      BOUNCE_DOMAIN: "bounces.artefact.test",
      INBOUND_HEALTH_PORT: String(ports.inboundHealth),
    });
    await untilAnswers("the app", `http://127.0.0.1:${ports.http}/api/health/ready`, app.child, app.output);
    await untilAnswers(
      "the worker",
      `http://127.0.0.1:${ports.workerHealth}/health/ready`,
      worker.child,
      worker.output,
    );
    await untilAnswers(
      "the bounce listener",
      `http://127.0.0.1:${ports.inboundHealth}/health/ready`,
      inbound.child,
      inbound.output,
    );
    const smtpGreeting = await waitFor(
      async () => {
        if (smtp.child.exitCode !== null)
          throw new Error(`it exited with ${smtp.child.exitCode}:\n${smtp.output.join("")}`);
        return smtpBanner(ports.smtp).catch(() => "");
      },
      { what: "the SMTP submission listener's greeting", timeout: 120_000, every: 100 },
    );
    expect(smtpGreeting).toMatch(/^220 /);
    expect(await smtpBanner(ports.inbound)).toMatch(/^220 /);

    const endpoint = await fetch(`http://127.0.0.1:${ports.http}/v1/webhook_endpoints`, {
      method: "POST",
      headers: { authorization: AUTH, "content-type": "application/json" },
      body: JSON.stringify({ url: hooks.url, eventTypes: ["email.delivered"] }),
    });
    expect(endpoint.status, await endpoint.clone().text()).toBe(201);
    const message = await sendToSimulator(ports.http, "From the artefact");
    // The app runs no worker: the worker process delivers, then the simulator reports DELIVERED.
    const read = (suffix = "") =>
      fetch(`http://127.0.0.1:${ports.http}/v1/email_messages/${message.id}${suffix}`, {
        headers: { authorization: AUTH },
      });
    const delivered = await waitFor(
      async () => {
        const { data } = (await (await read()).json()) as { data: { deliveredAt: string | null } };
        return data.deliveredAt !== null && data;
      },
      { what: `message ${message.id} to be delivered`, timeout: 60_000, every: 200 },
    ).catch((error: Error) => {
      throw new Error(
        `${error.message}\nworker output:\n${worker.output.join("")}\napp output:\n${app.output.join("")}`,
      );
    });
    expect(delivered).toMatchObject({ status: "SUCCEEDED", deliveredAt: expect.any(String) });
    const { data: events } = (await (await read("/events")).json()) as { data: Array<{ code: string }> };
    expect(events.map((event) => event.code)).toEqual(
      expect.arrayContaining(["EMAIL_MESSAGE_SENT_PROVIDER_EVENT", "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT"]),
    );
    await expectOneTrace(message.id, { otlp, hooks });
  }, 240_000);

  it("serves embedded mode with no DATABASE_URL, PGlite on a thread of its own: a send is delivered", async () => {
    const embeddedDir = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-artefact-embedded-"));
    try {
      const port = await freePort();
      const server = start(
        "the embedded server",
        ["server/server.mjs", "--hostname", "127.0.0.1", "--port", String(port)],
        {
          DATABASE_URL: "",
          DATA_DIR: embeddedDir,
          SEED_API_KEY: KEY,
          SEED_DEMO: "true",
        },
      );
      await untilAnswers(
        "the embedded server",
        `http://127.0.0.1:${port}/api/health/ready`,
        server.child,
        server.output,
      );
      // docs/architecture.md#the-embedded-database-on-its-own-thread: the thread is named for the operator's `top -H`.
      const tasks = `/proc/${server.child.pid}/task`;
      const threads = fs.readdirSync(tasks).map((task) => fs.readFileSync(`${tasks}/${task}/comm`, "utf8").trim());
      expect(threads).toContain("pglite");
      const message = await sendToSimulator(port, "From the embedded artefact");
      const delivered = await waitFor(
        async () => {
          const read = await fetch(`http://127.0.0.1:${port}/v1/email_messages/${message.id}`, {
            headers: { authorization: AUTH },
          });
          const { data } = (await read.json()) as { data: { deliveredAt: string | null; status: string } };
          return data.deliveredAt !== null && data;
        },
        { what: `message ${message.id} to be delivered`, timeout: 60_000, every: 200 },
      );
      expect(delivered).toMatchObject({ status: "SUCCEEDED" });
      // A clean stop closes the thread's database: SIGTERM's conventional code, and no failed shutdown logged.
      await stop(server.child);
      expect(server.child.exitCode, server.output.join("")).toBe(143);
      expect(server.output.join("")).not.toMatch(/shutdown failed/);
    } finally {
      fs.rmSync(embeddedDir, { recursive: true, force: true });
    }
  }, 180_000);
});
