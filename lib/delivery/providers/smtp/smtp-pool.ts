import "server-only";
import { spanEvent } from "@/lib/foundation/tracing";
import { parseConnectionUrl, SMTPConnection } from "@/internals/nodemailer";

export interface SmtpPoolSettings {
  /** smtp://[user:pass@]host:port or smtps://…; nodemailer's query options (?requireTLS=true…) apply. */
  url: string;
  poolSize: number;
  rejectUnauthorized: boolean;
  timeoutMs: number;
}

export type SmtpEnvelope = { from: string; to: string[] };

/** Messages one connection carries before it is replaced (nodemailer's pool does the same). */
const MESSAGES_PER_CONNECTION = 100;
/** An idle connection is closed politely after this long rather than left for the relay to drop. */
const IDLE_MS = 30_000;

interface Connection {
  smtp: SMTPConnection;
  messages: number;
  /** A message is on the wire: its send callback, not the pool, hears of a lost connection. */
  sending: boolean;
  gone: boolean;
  idleTimer?: NodeJS.Timeout;
}

interface Waiter {
  resolve(connection: Connection): void;
  reject(error: unknown): void;
}

/**
 * Up to `poolSize` SMTPConnections, each handed the finished MIME as it is: nodemailer's own pool re-composes it
 * (docs/benchmarks.md#delivery-throughput-round-4-2026-11-22-issue-4s-target).
 */
export class SmtpPool {
  private readonly idle: Connection[] = [];
  private readonly waiters: Waiter[] = [];
  /** Connections open or opening, and of those the opening ones. */
  private count = 0;
  private opening = 0;
  private closed = false;

  constructor(private readonly settings: SmtpPoolSettings) {}

  /** Resolves with the relay's answer to the message (its 250), rejects with nodemailer's SMTP error. */
  async send(envelope: SmtpEnvelope, raw: string | Buffer): Promise<SMTPConnection.SentMessageInfo> {
    // Once a try may have reached the relay (a reused connection dropped mid-send), no later failure is a clear "not sent".
    let unclear = false;
    for (let attempt = 0; ; attempt++) {
      const connection = await this.acquire().catch((error: unknown) => {
        throw unclear ? error : markNotSent(error);
      });
      const reused = connection.messages > 0;
      spanEvent("smtp connection", { "postwerk.smtp.reused": reused, "postwerk.smtp.try": attempt + 1 });
      connection.messages++;
      connection.sending = true;
      try {
        // A copy each time: nodemailer keeps the envelope it is given and writes its state onto it.
        const info = await sendOver(connection.smtp, { from: envelope.from, to: [...envelope.to] }, raw);
        connection.sending = false;
        spanEvent("smtp accepted", { "postwerk.smtp.response": replyWords(info.response) });
        // Next turn, as nodemailer's pool does: the data stream is still finishing when the 250 arrives.
        setImmediate(() => this.handOver(connection));
        return info;
      } catch (error) {
        connection.sending = false;
        const err = error as SMTPConnection.SMTPError;
        spanEvent("smtp failed", { "postwerk.smtp.response": replyWords(err.response ?? err.message) });
        if (refusedMessage(err) && !connection.gone) this.resetAndRelease(connection);
        else this.discard(connection);
        // A reused connection the relay dropped while it sat idle: once more on a fresh one.
        if (reused && attempt === 0 && droppedConnection(err)) {
          unclear = true;
          continue;
        }
        // Replies out of step with the pipelined commands: the message was not taken; once more, fresh.
        if (attempt === 0 && outOfStep(err)) continue;
        throw error;
      }
    }
  }

  /** Closes idle connections now and busy ones as they finish; later sends are refused. */
  close(): void {
    this.closed = true;
    for (const connection of [...this.idle]) this.discard(connection, true);
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error("The SMTP pool was closed."));
  }

  private acquire(): Promise<Connection> {
    if (this.closed) return Promise.reject(new Error("The SMTP pool was closed."));
    const ready = this.idle.pop();
    if (ready) {
      clearTimeout(ready.idleTimer);
      return Promise.resolve(ready);
    }
    return new Promise<Connection>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.openForWaiters();
    });
  }

  /** Opens connections for waiting sends while the pool has room; a failed open fails its waiter only. */
  private openForWaiters(): void {
    while (!this.closed && this.waiters.length > this.opening && this.count < this.settings.poolSize) {
      this.count++;
      this.opening++;
      this.open().then(
        (connection) => {
          this.opening--;
          this.handOver(connection);
        },
        (error: unknown) => {
          this.opening--;
          this.count--;
          this.waiters.shift()?.reject(error);
          this.openForWaiters();
        },
      );
    }
  }

  private handOver(connection: Connection): void {
    if (this.closed || connection.gone) return this.discard(connection, true);
    if (connection.messages >= MESSAGES_PER_CONNECTION) return this.discard(connection, true);
    const waiter = this.waiters.shift();
    if (waiter) {
      return waiter.resolve(connection);
    }
    // Before the socket timeout would end it less politely.
    connection.idleTimer = setTimeout(
      () => this.discard(connection, true),
      Math.min(IDLE_MS, this.settings.timeoutMs / 2),
    );
    connection.idleTimer.unref();
    this.idle.push(connection);
  }

  /** The relay refused this message only: RSET, and the connection serves the next one. */
  private resetAndRelease(connection: Connection): void {
    connection.smtp.reset((error) => (error ? this.discard(connection) : this.handOver(connection)));
  }

  private discard(connection: Connection, polite = false): void {
    clearTimeout(connection.idleTimer);
    const index = this.idle.indexOf(connection);
    if (index >= 0) this.idle.splice(index, 1);
    if (!connection.gone) {
      connection.gone = true;
      this.count--;
      if (polite) connection.smtp.quit();
      else connection.smtp.close();
    }
    this.openForWaiters();
  }

  private open(): Promise<Connection> {
    const { auth, ...options } = parseConnectionUrl(this.settings.url);
    const smtp = new SMTPConnection({
      ...options,
      connectionTimeout: this.settings.timeoutMs,
      greetingTimeout: this.settings.timeoutMs,
      socketTimeout: this.settings.timeoutMs,
      tls: { ...options.tls, rejectUnauthorized: this.settings.rejectUnauthorized },
    });
    const connection: Connection = { smtp, messages: 0, sending: false, gone: false };
    return new Promise<Connection>((resolve, reject) => {
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        smtp.close();
        reject(error);
      };
      const ready = () => {
        if (settled) return;
        settled = true;
        resolve(connection);
      };
      // A lost connection is retired at once unless a message is on the wire (its callback hears of it);
      // nodemailer drops a pending RSET's callback when the socket closes.
      const lost = () => {
        if (!settled) return fail(new Error("The SMTP server closed the connection before it was ready."));
        if (!connection.sending) this.discard(connection);
      };
      smtp.on("error", (error) => (settled ? lost() : fail(error)));
      smtp.once("end", lost);
      smtp.connect((error) => {
        if (error) return fail(error);
        if (!auth?.user || !smtp.allowsAuth) return ready();
        smtp.login(
          { user: auth.user, pass: auth.pass, method: options.authMethod as string | undefined },
          (loginError) => (loginError ? fail(loginError) : ready()),
        );
      });
    });
  }
}

/** The relay's reply for a span event: no address (a refusal may quote the recipient), at most 200 characters. */
function replyWords(reply: string | undefined): string {
  return String(reply ?? "")
    .replace(/<?[^\s<>]+@[^\s<>]+>?/g, "[address]")
    .slice(0, 200);
}

function sendOver(
  smtp: SMTPConnection,
  envelope: SmtpEnvelope,
  raw: string | Buffer,
): Promise<SMTPConnection.SentMessageInfo> {
  return new Promise((resolve, reject) =>
    smtp.send(envelope, raw, (error, info) => (error ? reject(error) : resolve(info))),
  );
}

/** The relay turned this message down (4xx, 5xx) but the session is fine (nodemailer's pool reuses it too). */
function refusedMessage(error: SMTPConnection.SMTPError): boolean {
  const code = error.responseCode ?? 0;
  return (error.code === "EENVELOPE" || error.code === "EMESSAGE") && code >= 400 && code !== 421;
}

/** An envelope "refused" with a 2xx or 3xx reply: the session's replies no longer match its commands. */
function outOfStep(error: SMTPConnection.SMTPError): boolean {
  const code = error.responseCode ?? 0;
  return error.code === "EENVELOPE" && code >= 200 && code < 400;
}

function droppedConnection(error: SMTPConnection.SMTPError): boolean {
  return error.code === "ECONNECTION" || error.code === "ESOCKET";
}

/**
 * Marks an error after which the relay certainly does not have the message: no connection could be opened (refused,
 * greeting, EHLO, TLS, AUTH), so a route may try its next connection (docs/delivery.md#routing-and-failover).
 */
function markNotSent(error: unknown): Error {
  const err = error instanceof Error ? error : new Error(String(error));
  return Object.assign(err, { notSent: true });
}
