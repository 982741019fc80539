import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { createHardenedServer, httpSettingsFromEnv, type HttpSettings, type RefusalLogFields } from "./hardened-server";
import { closedAfterEach, FAST } from "./testing";

/**
 * The hardened server driven over raw sockets, as an attacker would (docs/self-hosting.md#http-timeouts).
 * Timeouts are shrunk so each case takes well under two seconds.
 */
const { servers, timers } = closedAfterEach();

/** Reads the whole body like the app does, then answers 201 with what it got after `delayMs`. */
function echoHandler(delayMs = 20) {
  const bodies: string[] = [];
  const handler: RequestListener = (req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      bodies.push(body);
      setTimeout(() => {
        const json = JSON.stringify({ data: { received: body } });
        res.writeHead(201, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(json) });
        res.end(json);
      }, delayMs);
    });
  };
  return { handler, bodies };
}

/** The refusal lines the servers of the current test logged. */
let refusals: RefusalLogFields[] = [];

async function start(handler: RequestListener = echoHandler().handler, settings: Partial<HttpSettings> = {}) {
  refusals = [];
  const server = createHardenedServer(handler, { ...FAST, ...settings }, { log: (fields) => refusals.push(fields) });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as net.AddressInfo).port;
}

interface Exchange {
  socket: net.Socket;
  /** Everything the server sent, when it closed the connection, and how long after connecting. */
  closed: Promise<{ text: string; afterMs: number }>;
}

function connect(port: number, first: string): Exchange {
  const startedAt = performance.now();
  const socket = net.connect(port, "127.0.0.1", () => socket.write(first));
  let text = "";
  socket.on("data", (chunk) => (text += chunk.toString("latin1")));
  const closed = new Promise<{ text: string; afterMs: number }>((resolve) => {
    socket.on("error", () => {}); // a reset after the answer still ends the exchange
    socket.on("close", () => resolve({ text, afterMs: performance.now() - startedAt }));
  });
  return { socket, closed };
}

function trickle(socket: net.Socket, piece: string, everyMs: number): void {
  timers.push(setInterval(() => socket.writable && socket.write(piece), everyMs));
}

function parse(text: string) {
  const [head, body] = text.split("\r\n\r\n", 2);
  const requestId = /^x-request-id: (.+)$/im.exec(head)?.[1];
  return {
    status: Number(head.split(" ")[1]),
    head: head.toLowerCase(),
    body: body ? JSON.parse(body) : undefined,
    requestId,
  };
}

/** A refusal carries an X-Request-Id, and the one log line of the test names it with its status and code. */
function expectLoggedRefusal(answer: ReturnType<typeof parse>, code: string): void {
  expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(refusals).toEqual([{ requestId: answer.requestId, status: answer.status, code, remoteAddress: "127.0.0.1" }]);
}

const post = (headers: string) => `POST /api/v1/email_messages HTTP/1.1\r\nHost: test\r\n${headers}\r\n`;

describe("slow clients", () => {
  it("closes a body that stops after 8 of 1,000 bytes with 408 JSON once the idle timeout passes", async () => {
    const echo = echoHandler();
    const { closed } = connect(await start(echo.handler), post("Content-Length: 1000\r\n") + "12345678");
    const { text, afterMs } = await closed;
    expect(parse(text)).toMatchObject({ status: 408, body: { error: { code: "REQUEST_TIMEOUT" } } });
    expect(parse(text).head).toContain("connection: close");
    expect(afterMs).toBeGreaterThanOrEqual(FAST.idleTimeoutMs - 20);
    expect(echo.bodies).toEqual([]);
    expectLoggedRefusal(parse(text), "REQUEST_TIMEOUT");
  });

  it("cuts a chunked body trickling a byte at a time at the whole-request timeout", async () => {
    const echo = echoHandler();
    const { socket, closed } = connect(await start(echo.handler), post("Transfer-Encoding: chunked\r\n"));
    trickle(socket, "1\r\na\r\n", 100);
    const { text, afterMs } = await closed;
    expect(parse(text)).toMatchObject({ status: 408, body: { error: { code: "REQUEST_TIMEOUT" } } });
    expect(afterMs).toBeGreaterThanOrEqual(FAST.requestTimeoutMs - 20);
    expect(echo.bodies).toEqual([]);
    expect(refusals).toEqual([expect.objectContaining({ status: 408, path: "/api/v1/email_messages" })]);
  });

  it("writes nothing behind an answer the app sent before the body ended, closing at the whole-request timeout", async () => {
    const early: RequestListener = (_req, res) => res.writeHead(401, { "Content-Length": 0 }).end();
    const { socket, closed } = connect(await start(early), post("Content-Length: 1000\r\n"));
    trickle(socket, "a", 100);
    const { text, afterMs } = await closed;
    expect(text).toMatch(/^HTTP\/1\.1 401 /);
    expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(afterMs).toBeGreaterThanOrEqual(FAST.requestTimeoutMs - 20);
  });

  it("cuts headers that never finish at the headers timeout", async () => {
    const { socket, closed } = connect(await start(), "GET / HTTP/1.1\r\nHost: test\r\n");
    trickle(socket, "X", 50);
    const { text } = await closed;
    expect(parse(text)).toMatchObject({ status: 408, body: { error: { code: "REQUEST_TIMEOUT" } } });
  });

  it("leaves a body that arrives slowly but steadily, and an app slower than the idle timeout, alone", async () => {
    const echo = echoHandler(FAST.idleTimeoutMs * 2);
    const { socket, closed } = connect(
      await start(echo.handler),
      post("Content-Length: 6\r\nConnection: close\r\n") + "ab",
    );
    setTimeout(() => socket.write("cd"), 150);
    setTimeout(() => socket.write("ef"), 300);
    const { text } = await closed;
    expect(parse(text)).toMatchObject({ status: 201, body: { data: { received: "abcdef" } } });
  });
});

describe("undecodable paths (Next.js would answer a plain, unlogged 500)", () => {
  it.each([
    "/api/v1/email_messages/%C0%AE%C0%AE",
    "/v1/email_messages/em_%zz",
    "/api/v1/templates/%E2%80/raw",
    "/api/templates/%E2%80",
    "/api/uploads/%ED%A0%80",
  ])(
    "answers GET %s with the JSON 400 envelope (param path), an X-Request-Id and a log line, never reaching the app",
    async (path) => {
      const echo = echoHandler();
      const { closed } = connect(
        await start(echo.handler),
        `GET ${path}?limit=1 HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n`,
      );
      const answer = parse((await closed).text);
      expect(answer).toMatchObject({
        status: 400,
        body: { error: { code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", param: "path" } },
      });
      expect(answer.body.error.message).toMatch(/is not valid percent-encoded UTF-8/);
      expect(answer.head).toContain("content-type: application/json");
      expect(refusals).toEqual([
        {
          requestId: answer.requestId,
          status: 400,
          code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
          remoteAddress: "127.0.0.1",
          path,
        },
      ]);
      expect(echo.bodies).toEqual([]);
    },
  );

  it.each(["/emails/%zz", "/templates/%C0%AE/versions", "/t/c/%FF", "/u/%ED%A0%80/confirm", "/invite/%zz"])(
    "answers GET %s (dashboard, links in emails) with a plain 400 page",
    async (path) => {
      const echo = echoHandler();
      const { closed } = connect(
        await start(echo.handler),
        `GET ${path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n`,
      );
      const { text } = await closed;
      const [head, body] = text.split("\r\n\r\n", 2);
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      expect(head.toLowerCase()).toContain("content-type: text/html");
      expect(head.toLowerCase()).toMatch(/x-request-id: [0-9a-f-]{36}/);
      expect(body).toContain("not valid percent-encoded UTF-8");
      expect(echo.bodies).toEqual([]);
    },
  );

  it("refuses a POST with a body too, and lets decodable paths (and a % in the query) through to the app", async () => {
    const echo = echoHandler();
    const port = await start(echo.handler);
    const refused = connect(port, `POST /api/v1/batches/%zz HTTP/1.1\r\nHost: test\r\nContent-Length: 3\r\n\r\nabc`);
    expect(parse((await refused.closed).text).status).toBe(400);
    for (const path of [
      "/api/v1/email_messages/em_1",
      "/api/v1/email_messages/%00",
      "/emails/%E2%82%AC",
      "/api/v1/email_messages?subject=%zz",
    ]) {
      const { closed } = connect(
        port,
        `POST ${path} HTTP/1.1\r\nHost: test\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok`,
      );
      expect(parse((await closed).text).status, path).toBe(201);
    }
    expect(echo.bodies).toEqual(["ok", "ok", "ok", "ok"]);
  });
});

describe("requests the parser refuses", () => {
  it("answers a 100 KB Authorization header with 431 JSON and Connection: close", async () => {
    const { closed } = connect(
      await start(),
      `GET / HTTP/1.1\r\nHost: test\r\nAuthorization: Basic ${"a".repeat(100_000)}\r\n\r\n`,
    );
    const { text } = await closed;
    const answer = parse(text);
    expect(answer).toMatchObject({ status: 431, body: { error: { code: "REQUEST_HEADER_FIELDS_TOO_LARGE" } } });
    expect(answer.head).toContain("connection: close");
    expect(answer.head).toContain("content-type: application/json");
    expectLoggedRefusal(answer, "REQUEST_HEADER_FIELDS_TOO_LARGE");
  });

  it.each([
    ["a Content-Length that is not a number", "Content-Length: 1x\r\n", "0"],
    ["two different Content-Lengths", "Content-Length: 2\r\nContent-Length: 3\r\n", "abc"],
    ["Content-Length beside chunked", "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n", "3\r\nabc\r\n0\r\n\r\n"],
  ])("answers %s with 400 BAD_REQUEST JSON, never reaching the app", async (_name, headers, body) => {
    const echo = echoHandler();
    const { closed } = connect(await start(echo.handler), post(headers) + body);
    const answer = parse((await closed).text);
    expect(answer).toMatchObject({ status: 400, body: { error: { code: "BAD_REQUEST" } } });
    expect(answer.head).toContain("connection: close");
    expect(echo.bodies).toEqual([]);
    expectLoggedRefusal(answer, "BAD_REQUEST");
  });

  it("sends the app's answer to a complete request before closing on a stray byte after its body", async () => {
    const echo = echoHandler(100);
    const { closed } = connect(await start(echo.handler), post("Content-Length: 10\r\n") + "0123456789X");
    const { text } = await closed;
    const answer = parse(text);
    expect(answer).toMatchObject({ status: 201, body: { data: { received: "0123456789" } } });
    expect(answer.head).toContain("connection: close");
    expect(text).not.toContain("400 Bad Request");
    expect(echo.bodies).toEqual(["0123456789"]);
  });
});

describe("keep-alive limits", () => {
  const get = "GET / HTTP/1.1\r\nHost: test\r\n\r\n";
  const ok: RequestListener = (_req, res) => res.end("ok");

  it("closes an idle keep-alive connection after the keep-alive timeout (plus Node's 1 s buffer)", async () => {
    const { closed } = connect(await start(ok), get);
    const { text } = await closed;
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    expect(text.toLowerCase()).toContain("keep-alive: timeout=0"); // 200 ms, announced in whole seconds
  });

  it("serves at most maxRequestsPerSocket requests on one connection, closing after the last", async () => {
    const port = await start(ok, { maxRequestsPerSocket: 2 });
    const { socket, closed } = connect(port, get);
    socket.once("data", () => socket.write(get));
    const { text } = await closed;
    const answers = text.split("HTTP/1.1 ").slice(1);
    expect(answers).toHaveLength(2);
    expect(answers[0].toLowerCase()).toContain("connection: keep-alive");
    expect(answers[1].toLowerCase()).toContain("connection: close");
  });
});

describe("settings", () => {
  it("come from the validated environment (lib/foundation/env.ts), defaults included", () => {
    expect(httpSettingsFromEnv()).toEqual({
      headersTimeoutMs: 10_000,
      idleTimeoutMs: 10_000,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 5_000,
      maxRequestsPerSocket: 1_000,
    });
  });
});
