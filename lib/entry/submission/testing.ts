import net from "node:net";
import tls from "node:tls";
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { startSubmissionServer, type SubmissionListener, type SubmissionSettings } from "./start-submission-server";

/** A listener on free loopback ports; plain-text AUTH allowed (loopback) unless the overrides say otherwise. */
export async function startTestListener(
  overrides: Partial<SubmissionSettings> & { tlsReloadIntervalMs?: number } = {},
): Promise<SubmissionListener> {
  const listener = await startSubmissionServer({
    SMTP_SUBMISSION_PORT: 0,
    SMTP_SUBMISSION_HOST: "127.0.0.1",
    SMTP_ALLOW_INSECURE_AUTH: true,
    ...overrides,
  });
  return listener!;
}

/** A real nodemailer client (no pool: one connection per message unless `pool`). */
export function smtpClient(
  port: number,
  auth: { user: string; pass: string } | null,
  extra: Record<string, unknown> = {},
) {
  return nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    ignoreTLS: true,
    ...(auth ? { auth } : {}),
    ...extra,
  } as SMTPTransport.Options);
}

/** The error a refused send rejects with: nodemailer's SMTP error carries the reply. */
export async function refusal(promise: Promise<unknown>): Promise<{ responseCode?: number; response?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { responseCode?: number; response?: string };
  }
  throw new Error("expected the send to be refused");
}

/** SMTP by hand, as swaks or telnet: `reply()` waits for the next (multi-line) reply; `command()` writes and waits. */
export class RawSmtp {
  private buffer = "";
  private waiting: Array<(reply: string) => void> = [];
  private replies: string[] = [];
  closed = false;

  private constructor(private socket: net.Socket | tls.TLSSocket) {
    this.attach(socket);
  }

  static async connect(port: number): Promise<RawSmtp> {
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    return new RawSmtp(socket);
  }

  private attach(socket: net.Socket | tls.TLSSocket) {
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => this.take(chunk));
    socket.on("close", () => (this.closed = true));
    socket.on("error", () => (this.closed = true));
  }

  private take(chunk: string) {
    this.buffer += chunk;
    for (
      let match = /(?:^|\r\n)(\d{3}) [^\r\n]*\r\n/.exec(this.buffer);
      match;
      match = /(?:^|\r\n)(\d{3}) [^\r\n]*\r\n/.exec(this.buffer)
    ) {
      const end = match.index + match[0].length;
      const reply = this.buffer.slice(0, end).replace(/^\r\n/, "").trimEnd();
      this.buffer = this.buffer.slice(end);
      const waiter = this.waiting.shift();
      if (waiter) waiter(reply);
      else this.replies.push(reply);
    }
  }

  reply(timeoutMs = 10_000): Promise<string> {
    const ready = this.replies.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply within ${timeoutMs} ms`)), timeoutMs);
      this.waiting.push((reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
    });
  }

  /** Resolves once the text is handed to the OS: a destroy() after that still delivers it. */
  write(text: string): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(text, (error) => (error ? reject(error) : resolve())));
  }

  async command(line: string): Promise<string> {
    void this.write(`${line}\r\n`);
    return this.reply();
  }

  /** STARTTLS, then the same conversation over TLS (any certificate: the test checks which one it got). */
  async startTls(): Promise<tls.PeerCertificate> {
    const answer = await this.command("STARTTLS");
    if (!answer.startsWith("220")) throw new Error(`STARTTLS refused: ${answer}`);
    this.socket.removeAllListeners("data");
    const secure = tls.connect({ socket: this.socket, rejectUnauthorized: false });
    await new Promise((resolve, reject) => secure.once("secureConnect", resolve).once("error", reject));
    this.socket = secure;
    this.attach(secure);
    return secure.getPeerCertificate();
  }

  destroy(): void {
    this.socket.destroy();
  }
}

export const plainAuth = (username: string, password: string) =>
  Buffer.from(`\0${username}\0${password}`).toString("base64");
