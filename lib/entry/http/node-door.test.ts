import { createHash } from "node:crypto";
import type { RequestListener } from "node:http";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { readJsonBody } from "@/lib/entry/api/read-json";
import { errorReply, jsonResponse } from "@/lib/entry/api/respond";
import { createRouter } from "@/lib/entry/api/router";
import { createHardenedServer, type HttpSettings, type RefusalLogFields } from "./hardened-server";
import { closedAfterEach, FAST } from "./testing";
import { createNodeDoor, type DrainLimits } from "./node-door";

/**
 * The production door (hardened server + node door + a router whose handler reads its body with
 * read-json) driven by raw sockets: oversized and trickled bodies (docs/self-hosting.md#http-timeouts).
 * The route's cap is small so the bodies stay light; they are still past the door's 1 MB buffering,
 * so they reach the handler as a stream, as a 10 MB send's would.
 */
const CAP = 128 * 1024;

const { servers, timers } = closedAfterEach();
let refusals: RefusalLogFields[] = [];

/** POST /api/v1/echo reads its JSON body under CAP and answers 201 with its size and digest. */
const router = createRouter({
  bases: ["/api/v1"],
  routes: [
    [
      "/echo",
      {
        POST: async (request) => {
          try {
            const body = JSON.stringify(await readJsonBody(request, CAP));
            return Response.json({ data: { bytes: body.length, sha256: sha256(body) } }, { status: 201 });
          } catch (error) {
            return jsonResponse(errorReply(error));
          }
        },
      },
    ],
  ],
  notFound: async () => Response.json({ error: { code: "NOT_FOUND" } }, { status: 404 }),
});

/** Next.js's stand-in: reads the whole body and answers with its size and digest. */
const nextStandIn: RequestListener = (req, res) => {
  const hash = createHash("sha256");
  let bytes = 0;
  req.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
    hash.update(chunk);
  });
  req.on("end", () => res.end(JSON.stringify({ next: { bytes, sha256: hash.digest("hex") } })));
};

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

async function start(options: { drain?: DrainLimits; settings?: Partial<HttpSettings> } = {}) {
  refusals = [];
  const door = createNodeDoor({
    routers: [router],
    fallback: nextStandIn,
    hostname: "127.0.0.1",
    port: 0,
    drain: options.drain,
  });
  const server = createHardenedServer(door, { ...FAST, ...options.settings }, { log: (f) => refusals.push(f) });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as net.AddressInfo).port;
}

interface Exchange {
  socket: net.Socket;
  /** Everything the server sent, whether it ended with a reset, and how long after connecting. */
  closed: Promise<{ text: string; reset: boolean; afterMs: number }>;
}

/** Sends the head, then writes the pieces `body` yields as fast as the socket takes them. */
function exchange(port: number, head: string, body: Iterable<string | Buffer> = []): Exchange {
  const startedAt = performance.now();
  const socket = net.connect(port, "127.0.0.1");
  const pieces = body[Symbol.iterator]();
  const pump = () => {
    for (let next = pieces.next(); !next.done; next = pieces.next()) {
      if (socket.destroyed) return;
      if (!socket.write(next.value)) return void socket.once("drain", pump);
    }
  };
  socket.on("connect", () => {
    socket.write(head);
    pump();
  });
  let text = "";
  let reset = false;
  socket.on("data", (chunk) => (text += chunk.toString("latin1")));
  const closed = new Promise<{ text: string; reset: boolean; afterMs: number }>((resolve) => {
    socket.on("error", () => (reset = true));
    socket.on("close", () => resolve({ text, reset, afterMs: performance.now() - startedAt }));
  });
  return { socket, closed };
}

function parse(text: string) {
  const end = text.indexOf("\r\n\r\n");
  const head = text.slice(0, end).toLowerCase();
  const length = Number(/^content-length: (\d+)$/m.exec(head)?.[1]);
  return { status: Number(head.split(" ")[1]), head, body: JSON.parse(text.slice(end + 4, end + 4 + length)) };
}

const post = (path: string, headers: string) =>
  `POST ${path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n${headers}\r\n`;

/** A JSON string of about `bytes` bytes, in pieces of 16 KB. */
function* jsonOf(bytes: number): Generator<string> {
  yield '"';
  for (let sent = 2; sent < bytes; sent += 16 * 1024) yield "a".repeat(Math.min(16 * 1024, bytes - sent));
  yield '"';
}

function* chunked(pieces: Iterable<string>, end = true): Generator<string> {
  for (const piece of pieces) yield `${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`;
  if (end) yield "0\r\n\r\n";
}

function* forever(piece: string): Generator<string> {
  for (;;) yield piece;
}

describe("bodies over the route's cap", () => {
  it("answers a declared 11× the cap with the JSON 413 the client reads, then reads the body away and closes cleanly", async () => {
    const size = 11 * CAP;
    const { closed } = exchange(await start(), post("/api/v1/echo", `Content-Length: ${size}\r\n`), jsonOf(size));
    const { text, reset } = await closed;
    const answer = parse(text);
    expect(answer).toMatchObject({ status: 413, body: { error: { code: "PAYLOAD_TOO_LARGE" } } });
    expect(answer.body.error.message).toBe("The request body is larger than 128 KB.");
    expect(answer.head).toContain("connection: close");
    expect(reset).toBe(false); // a FIN after the whole body was read, not a reset
    expect(refusals).toEqual([]);
  });

  it("answers a chunked body 24× the cap with the 413 once the cap is passed, then closes cleanly", async () => {
    const port = await start();
    const { closed } = exchange(
      port,
      post("/api/v1/echo", "Transfer-Encoding: chunked\r\n"),
      chunked(jsonOf(24 * CAP)),
    );
    const { text, reset } = await closed;
    const answer = parse(text);
    expect(answer).toMatchObject({ status: 413, body: { error: { code: "PAYLOAD_TOO_LARGE" } } });
    expect(answer.head).toContain("connection: close");
    expect(reset).toBe(false);
  });

  it("stops reading a body that never ends once the drain's byte bound is passed, the 413 sent first", async () => {
    const port = await start({ drain: { maxBytes: 4 * CAP, maxMs: 60_000 } });
    const piece = "a".repeat(16 * 1024);
    const { closed } = exchange(port, post("/api/v1/echo", "Transfer-Encoding: chunked\r\n"), chunked(forever(piece)));
    const answer = parse((await closed).text);
    expect(answer).toMatchObject({ status: 413, body: { error: { code: "PAYLOAD_TOO_LARGE" } } });
    expect(refusals).toEqual([]); // the drain's bound closed it, not the request deadline
  });

  it("stops reading a slow rest of the body once the drain's time bound passes", async () => {
    const port = await start({ drain: { maxBytes: 100 * CAP, maxMs: 200 }, settings: { requestTimeoutMs: 5_000 } });
    const { socket, closed } = exchange(port, post("/api/v1/echo", `Content-Length: ${11 * CAP}\r\n`));
    timers.push(setInterval(() => socket.writable && socket.write("a"), 20));
    const { text, afterMs } = await closed;
    expect(parse(text)).toMatchObject({ status: 413 });
    expect(afterMs).toBeGreaterThanOrEqual(200 - 20);
    expect(refusals).toEqual([]); // not the 5 s request deadline
  });

  it("still hands a body under the cap, streamed past the door's buffering, to the handler whole", async () => {
    const size = CAP - 64;
    const body = [...jsonOf(size)].join("");
    const port = await start();
    const head = post("/api/v1/echo", "Transfer-Encoding: chunked\r\nConnection: close\r\n");
    const answer = parse((await exchange(port, head, chunked(jsonOf(size))).closed).text);
    expect(answer).toMatchObject({ status: 201, body: { data: { bytes: size, sha256: sha256(body) } } });
    expect(answer.head).not.toContain("connection: keep-alive");
  });

  it("leaves Next.js's path alone: a 3 MB chunked body reaches it whole", async () => {
    const body = [...jsonOf(3 * 1024 * 1024)].join("");
    const head = post("/api/uploads/att_1", "Transfer-Encoding: chunked\r\nConnection: close\r\n");
    const { text } = await exchange(await start(), head, chunked(jsonOf(body.length))).closed;
    expect(parse(text).body).toEqual({ next: { bytes: body.length, sha256: sha256(body) } });
  });
});

describe("bodies that trickle", () => {
  it.each([
    ["streamed to the handler", "/api/v1/echo", "Transfer-Encoding: chunked\r\n", '1\r\n"\r\n'],
    ["buffered by the door", "/api/v1/echo", "Content-Length: 1000\r\n", '"'],
    ["read by Next.js", "/api/uploads/att_1", `Content-Length: ${2 * 1024 * 1024}\r\n`, '"'],
  ])("cuts a body %s, a byte at a time, with 408 at the whole-request timeout", async (_name, path, headers, piece) => {
    const { socket, closed } = exchange(await start(), post(path, headers));
    timers.push(setInterval(() => socket.writable && socket.write(piece), 50));
    const { text, afterMs } = await closed;
    const answer = parse(text);
    expect(answer).toMatchObject({ status: 408, body: { error: { code: "REQUEST_TIMEOUT" } } });
    expect(answer.head).toContain("connection: close");
    expect(afterMs).toBeGreaterThanOrEqual(FAST.requestTimeoutMs - 20);
    expect(refusals).toEqual([expect.objectContaining({ status: 408, code: "REQUEST_TIMEOUT", path })]);
  });

  it("sends nothing after an answer given before the body ended, and closes at the deadline", async () => {
    const port = await start({ drain: { maxBytes: 100 * CAP, maxMs: 60_000 } });
    const { socket, closed } = exchange(port, post("/api/v1/echo", `Content-Length: ${11 * CAP}\r\n`));
    timers.push(setInterval(() => socket.writable && socket.write("a"), 50));
    const { text, afterMs } = await closed;
    expect(parse(text).status).toBe(413);
    expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(afterMs).toBeGreaterThanOrEqual(FAST.requestTimeoutMs - 20);
  });
});
