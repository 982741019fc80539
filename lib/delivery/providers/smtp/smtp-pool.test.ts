import net, { type AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerSession } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { SmtpPool } from "./smtp-pool";

/** The pool against real smtp-server instances on loopback (docs/architecture.md#rules-that-carry-weight, rule 6). */
interface Received {
  raw: string;
  session: SMTPServerSession;
}

interface Relay {
  url: (credentials?: string) => string;
  received: Received[];
  /** Distinct client connections that sent a message. */
  connections: () => number;
  /** The most client connections open at one time. */
  mostOpen: () => number;
  /** Drops every open client connection, as a relay ending idle sessions does. */
  dropClients: () => void;
  close: () => Promise<void>;
}

const opened: Relay[] = [];
const pools: SmtpPool[] = [];
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const pool of pools.splice(0)) pool.close();
  for (const relay of opened.splice(0)) await relay.close();
  for (const close of closers.splice(0)) await close();
});

async function startRelay(options: { auth?: boolean; refuse?: (raw: string) => boolean } = {}): Promise<Relay> {
  const received: Received[] = [];
  const sessions = new Set<string>();
  let open = 0;
  let mostOpen = 0;
  const server = new SMTPServer({
    // STARTTLS with smtp-server's built-in self-signed certificate; AUTH only when asked for.
    disabledCommands: options.auth ? [] : ["AUTH"],
    authOptional: !options.auth,
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 500,
    onConnect(_session, callback) {
      mostOpen = Math.max(mostOpen, ++open);
      callback();
    },
    onClose() {
      open--;
    },
    onAuth(auth, _session, callback) {
      if (auth.username === "mailer" && auth.password === "s3cret") return callback(null, { user: auth.username });
      callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        if (options.refuse?.(raw)) return callback(Object.assign(new Error("5.7.1 Refused"), { responseCode: 550 }));
        received.push({ raw, session: { ...session } });
        sessions.add(session.id);
        callback(null, "Ok");
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  server.on("error", () => {});
  const { port } = server.server.address() as AddressInfo;
  const relay: Relay = {
    url: (credentials) => `smtp://${credentials ? `${credentials}@` : ""}127.0.0.1:${port}`,
    received,
    connections: () => sessions.size,
    mostOpen: () => mostOpen,
    dropClients: () => {
      for (const connection of (server as unknown as { connections: Set<{ close(): void }> }).connections)
        connection.close();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  opened.push(relay);
  return relay;
}

interface ScriptedRelay {
  url: string;
  /** The data of every message, as received (refused ones too). */
  messages: string[];
  sessions: () => number;
}

/**
 * A raw ESMTP relay on loopback (PIPELINING) whose answers a test may override per session and
 * command verb ("END" is the end of a message's data): undefined gives the normal answer, "" none.
 */
async function scriptedRelay(
  answer: (session: number, verb: string, socket: net.Socket) => string | undefined,
): Promise<ScriptedRelay> {
  let sessions = 0;
  const messages: string[] = [];
  const server = net.createServer((socket) => {
    const session = ++sessions;
    let buffered = "";
    let data = false;
    const reply = (verb: string, normal: string) => {
      const text = answer(session, verb, socket) ?? normal;
      if (text) socket.write(`${text}\r\n`);
    };
    socket.write("220 relay ESMTP\r\n");
    socket.on("error", () => {});
    socket.on("data", (chunk) => {
      buffered += chunk.toString("latin1");
      for (
        let end = buffered.indexOf(data ? "\r\n.\r\n" : "\r\n");
        end >= 0;
        end = buffered.indexOf(data ? "\r\n.\r\n" : "\r\n")
      ) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + (data ? 5 : 2));
        if (data) {
          messages.push(line);
          data = false;
          reply("END", "250 Ok");
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO") reply(verb, "250-relay\r\n250 PIPELINING");
        else if (verb === "QUIT") socket.end("221 Bye\r\n");
        else if (verb === "DATA") {
          const text = answer(session, verb, socket) ?? "354 Go ahead";
          socket.write(`${text}\r\n`);
          data = text.startsWith("354");
        } else reply(verb, "250 Ok");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`, messages, sessions: () => sessions };
}

function poolFor(url: string, poolSize = 3): SmtpPool {
  const pool = new SmtpPool({ url, poolSize, rejectUnauthorized: false, timeoutMs: 5000 });
  pools.push(pool);
  return pool;
}

const message = (n: number) =>
  `Message-ID: <m${n}@example.com>\r\nFrom: a@example.com\r\nTo: b@example.org\r\nSubject: ${n}\r\n\r\nBody ${n}\r\n.leading dot\r\n`;
const envelope = { from: "a@example.com", to: ["b@example.org"] };

describe("SmtpPool", () => {
  it("sends many messages over at most poolSize connections, STARTTLS on each, bytes unchanged", async () => {
    const relay = await startRelay();
    const pool = poolFor(relay.url(), 3);
    const infos = await Promise.all(Array.from({ length: 30 }, (_, n) => pool.send(envelope, message(n))));

    expect(infos.every((info) => info.response.startsWith("250"))).toBe(true);
    expect(relay.received).toHaveLength(30);
    // At most 3 at a time (a session that fell out of step is replaced: more than 3 in all is fine).
    expect(relay.mostOpen()).toBeGreaterThan(1);
    expect(relay.mostOpen()).toBeLessThanOrEqual(3);
    expect(relay.received.every((entry) => entry.session.secure)).toBe(true);
    const sent = relay.received.find((entry) => entry.raw.includes("<m7@example.com>"))!;
    expect(sent.raw).toBe(`${message(7)}`);
    expect(sent.session.envelope.rcptTo.map((rcpt) => rcpt.address)).toEqual(["b@example.org"]);
  });

  it("logs in with the URL's credentials, and fails every send when they are wrong", async () => {
    const relay = await startRelay({ auth: true });
    await poolFor(relay.url("mailer:s3cret")).send(envelope, message(1));
    expect(relay.received[0].session.user).toBe("mailer");

    const wrong = poolFor(relay.url("mailer:nope"));
    await expect(wrong.send(envelope, message(2))).rejects.toMatchObject({ code: "EAUTH" });
    expect(relay.received).toHaveLength(1);
  });

  it("keeps the connection after a refused message and sends the next over it", async () => {
    const relay = await startRelay({ refuse: (raw) => raw.includes("<m1@") });
    const pool = poolFor(relay.url(), 1);
    await pool.send(envelope, message(0));
    await expect(pool.send(envelope, message(1))).rejects.toMatchObject({ responseCode: 550 });
    await pool.send(envelope, message(2));

    expect(relay.received.map((entry) => entry.raw.match(/<m\d+@/)?.[0])).toEqual(["<m0@", "<m2@"]);
    expect(relay.connections()).toBe(1);
  });

  it("replaces a connection the relay dropped while it was idle, without failing the send", async () => {
    const relay = await startRelay();
    const pool = poolFor(relay.url(), 1);
    await pool.send(envelope, message(0));
    relay.dropClients();
    await pool.send(envelope, message(1));

    expect(relay.received).toHaveLength(2);
    expect(relay.connections()).toBe(2);
  });

  it("sends once more over a fresh session when the replies fall out of step with the pipelined commands", async () => {
    // The first session answers the pipelined MAIL, RCPT, DATA with 250, 354, 250.
    const relay = await scriptedRelay((session, verb) => {
      if (session === 1 && verb === "RCPT") return "354 Go ahead";
      if (session === 1 && verb === "DATA") return "250 Ok";
    });
    const info = await poolFor(relay.url, 1).send(envelope, message(1));

    expect(info.response).toMatch(/^250/);
    expect(relay.sessions()).toBe(2);
    expect(relay.messages).toHaveLength(1);
    expect(relay.messages[0]).toContain("<m1@example.com>");
  });

  it("frees the slot of a connection the relay drops after refusing a message (no reply to RSET)", async () => {
    const relay = await scriptedRelay((session, verb, socket) => {
      if (session === 1 && verb === "END") {
        socket.end("554 5.7.1 Too many errors, bye\r\n");
        return "";
      }
    });
    const pool = poolFor(relay.url, 1);
    await expect(pool.send(envelope, message(1))).rejects.toMatchObject({ responseCode: 554 });
    await pool.send(envelope, message(2));

    expect(relay.sessions()).toBe(2);
    expect(relay.messages.map((raw) => raw.match(/<m\d+@/)?.[0])).toEqual(["<m1@", "<m2@"]);
  });

  it("fails a send when the relay cannot be reached, and refuses sends once closed", async () => {
    const relay = await startRelay();
    const url = relay.url();
    await relay.close();
    opened.splice(0);
    const pool = poolFor(url);
    await expect(pool.send(envelope, message(0))).rejects.toMatchObject({ code: "ESOCKET" });

    pool.close();
    await expect(pool.send(envelope, message(1))).rejects.toThrow(/closed/);
  });
});
