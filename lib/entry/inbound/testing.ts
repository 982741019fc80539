import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import { bounceAddress } from "@/lib/foundation/crypto/bounce-token";
import { newId } from "@/lib/foundation/ids";
import { insertTestMessage } from "@/lib/testing/fixtures";

/** The bounce domain of the inbound tests and the bench. */
export const TEST_BOUNCE_DOMAIN = "bounces.example.com";
const FIXTURES = path.join(import.meta.dirname, "testdata", "fixtures");

/** A sent live message (as the smtp provider leaves it) and its return path. */
export async function insertSentMessage(workspaceId: string, to: string[] = ["Ada <ada@example.org>"]) {
  const sentAt = new Date(Date.now() - 60_000);
  const createdAt = new Date(sentAt.getTime() - 1000);
  const id = await insertTestMessage(workspaceId, {
    id: newId("message", createdAt),
    status: "SUCCEEDED",
    to,
    toAddresses: to.map((entry) => (/<([^>]+)>/.exec(entry)?.[1] ?? entry).toLowerCase()),
    createdAt,
    sentAt,
  });
  return { id, returnPath: bounceAddress(id, TEST_BOUNCE_DOMAIN), messageIdHeader: `<${id}@example.com>` };
}

/** A testdata/fixtures report with its {{PLACEHOLDERS}} filled in and CRLF line ends, as on the wire. */
export function fixtureReport(
  name: string,
  values: { to: string; returnPath: string; recipient: string; messageId: string; date?: Date },
): string {
  const text = fs.readFileSync(path.join(FIXTURES, name), "utf8");
  return text
    .replaceAll("{{TO}}", values.to)
    .replaceAll("{{RETURN_PATH}}", values.returnPath)
    .replaceAll("{{RECIPIENT}}", values.recipient)
    .replaceAll("{{MESSAGE_ID}}", values.messageId)
    .replaceAll("{{DATE}}", (values.date ?? new Date()).toUTCString().replace("GMT", "+0000"))
    .replace(/\r?\n/g, "\r\n");
}

/** A real SMTP client for the listener: plain SMTP on loopback, null sender like a bounce. */
export function inboundClient(port: number, options: { pool?: boolean; maxConnections?: number } = {}) {
  return nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    ignoreTLS: true,
    pool: options.pool ?? false,
    maxConnections: options.maxConnections,
    maxMessages: Infinity,
  });
}

/** A standalone `npm run inbound` process (inbound-main.ts), for tests and the bench. */
export interface InboundProcess {
  child: ChildProcess;
  /** The port it listens on, once its log says so; rejects if it exits first. */
  port: Promise<number>;
  stderr(): string;
  stop(): Promise<number | null>;
}

/** Spawns the listener the way `npm run inbound` does; SMTP_INBOUND_PORT=0 picks a free port. */
export function startInboundProcess(env: Record<string, string | undefined>, root = process.cwd()): InboundProcess {
  const child = spawn(
    path.join(root, "node_modules", ".bin", "tsx"),
    ["--conditions=react-server", path.join("lib", "entry", "inbound", "inbound-main.ts")],
    {
      cwd: root,
      env: {
        ...process.env,
        LOG_LEVEL: "info",
        SMTP_INBOUND_HOST: "127.0.0.1",
        SMTP_INBOUND_PORT: "0",
        BOUNCE_DOMAIN: TEST_BOUNCE_DOMAIN,
        ...env,
      },
      stdio: "pipe",
    },
  );
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const port = new Promise<number>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      stdout += chunk;
      const line = /\{[^\n]*"inbound SMTP listener started"[^\n]*\}/.exec(stdout)?.[0];
      if (line) resolve(Number((JSON.parse(line) as { port: number }).port));
    });
    child.once("exit", (code, signal) => reject(new Error(`inbound exited with ${code ?? signal}: ${stderr}`)));
  });
  port.catch(() => {});
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    port,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
