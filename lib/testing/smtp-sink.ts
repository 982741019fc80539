import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** One message the sink took (answered 250). */
export interface SinkMessage {
  envelope: { from: string; to: string[] };
  /** The bytes as received, DKIM-Signature included. */
  raw: Buffer;
  /** The Message-ID header (`<…>`), or null. */
  messageId: string | null;
  /** 1 for the first DATA with this Message-ID, 2 for the next… (rejected tries count too). */
  attempt: number;
}

/**
 * What to answer to a DATA: a reply code and text ("5.1.1 mailbox unavailable"), or undefined to
 * accept; a promise holds the answer back until it settles.
 */
export type SinkResponder = (
  message: SinkMessage,
) => { code: number; message: string } | undefined | Promise<{ code: number; message: string } | undefined>;

export interface SmtpSink {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  /** Messages accepted, in order. */
  messages: SinkMessage[];
  /** DATA commands seen per Message-ID, accepted or not. */
  attempts: Map<string, number>;
  /** Replaces how the sink answers (the default accepts everything). */
  respond(responder: SinkResponder | undefined): void;
  /** Resolves once `count` messages were accepted. */
  waitForMessages(count: number, timeoutMs?: number): Promise<SinkMessage[]>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on a free loopback port for tests and benchmarks (docs/development.md#traps, trap 6: no STARTTLS,
 * no reverse lookup, any sender and recipient). It answers 250 with "Ok: queued as <n>" like Postfix,
 * or whatever the responder says.
 */
export async function startSmtpSink(options: { responder?: SinkResponder } = {}): Promise<SmtpSink> {
  let responder = options.responder;
  const messages: SinkMessage[] = [];
  const attempts = new Map<string, number>();
  let waiters: Array<() => void> = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    disableReverseLookup: true,
    logger: false,
    // A client still holding pooled connections must not keep close() waiting for 30 s.
    closeTimeout: 1000,
    size: 50 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks);
        const messageId = headerValue(raw, "message-id");
        const attempt = (attempts.get(messageId ?? "") ?? 0) + 1;
        if (messageId) attempts.set(messageId, attempt);
        const message: SinkMessage = {
          envelope: {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          },
          raw,
          messageId,
          attempt,
        };
        const reply = await responder?.(message);
        if (reply) {
          callback(Object.assign(new Error(reply.message), { responseCode: reply.code }));
          return;
        }
        messages.push(message);
        callback(null, `Ok: queued as Q${messages.length}`);
        for (const wake of waiters) wake();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  // A client killed mid-session (the crash-safety test SIGKILLs workers) resets its connections;
  // smtp-server reports that as a server error, which unhandled would crash the test process.
  server.on("error", () => {});
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    attempts,
    respond(next) {
      responder = next;
    },
    async waitForMessages(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`the SMTP sink got ${messages.length} of ${count} messages in time`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 200);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
        waiters = [];
      }
      return messages.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An unfolded header of a raw message (headers end at the first empty line). */
function headerValue(raw: Buffer, name: string): string | null {
  const end = raw.indexOf("\r\n\r\n");
  const head = raw
    .subarray(0, end < 0 ? raw.length : end)
    .toString("utf8")
    .replace(/\r\n[ \t]+/g, " ");
  const line = head.split("\r\n").find((entry) => entry.toLowerCase().startsWith(`${name}:`));
  return line ? line.slice(name.length + 1).trim() : null;
}
