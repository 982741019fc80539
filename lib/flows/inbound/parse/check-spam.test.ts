import { createServer, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { env, resetEnvForTests } from "@/lib/foundation/env";
import { SPAMD_BINARY, startRealSpamd, type RealSpamd } from "@/lib/testing/real-spamd";
import { spamFinding, spamVerdict } from "@/lib/flows/content/spam-finding";
import { checkSpam, parseSpamdUrl } from "./check-spam";

const GTUBE = "XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X";

function mail(body: string): Buffer {
  return Buffer.from(
    [
      "From: Ana <ana@example.org>",
      "To: support@inbound.postwerk.test",
      "Subject: Re: your receipt",
      "Date: Sat, 28 Nov 2026 10:00:00 +0000",
      "Message-ID: <reply-1@example.org>",
      "Content-Type: text/plain; charset=utf-8",
      "",
      body,
      "",
    ].join("\r\n"),
  );
}

/** A TCP server speaking spamd's side: reads one request (headers + Content-length bytes), answers `reply`. */
interface FakeSpamd {
  port: number;
  requests: Buffer[];
  stop(): Promise<void>;
}

async function fakeSpamd(reply: string | null): Promise<FakeSpamd> {
  const requests: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    let buffered = Buffer.alloc(0);
    socket.on("data", (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      const headEnd = buffered.indexOf("\r\n\r\n");
      const length = Number(/Content-length: (\d+)/i.exec(buffered.toString("latin1"))?.[1] ?? NaN);
      if (headEnd < 0 || buffered.length < headEnd + 4 + length) return;
      requests.push(buffered);
      if (reply !== null) socket.end(reply); // null: read the mail and never answer
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const stop = async () => {
    sockets.forEach((socket) => socket.destroy());
    if (server.listening) await new Promise((resolve) => server.close(resolve));
  };
  return { port: (server.address() as { port: number }).port, requests, stop };
}

const running: FakeSpamd[] = [];
afterEach(async () => {
  for (const fake of running.splice(0)) await fake.stop();
});

async function serve(reply: string | null) {
  const fake = await fakeSpamd(reply);
  running.push(fake);
  return fake;
}

describe("checkSpam against a server answering in spamd's format", () => {
  it("is not_checked when SPAMD_URL is unset", async () => {
    for (const url of [undefined, ""])
      expect(await checkSpam(mail("hello"), url)).toEqual({
        status: "not_checked",
        score: null,
        threshold: null,
        rules: [],
      });
  });

  it("sends SYMBOLS SPAMC/1.5 with the mail's length and bytes, and reads a spam verdict with its rules", async () => {
    const fake = await serve(
      "SPAMD/1.1 0 EX_OK\r\nContent-length: 17\r\nSpam: True ; 15.0 / 5.0\r\n\r\nGTUBE,MISSING_MID\r\n",
    );
    const raw = mail("Grüße, a body with UTF-8");
    const verdict = await checkSpam(raw, `spamd://127.0.0.1:${fake.port}`);
    expect(verdict).toEqual({ status: "spam", score: 15, threshold: 5, rules: ["GTUBE", "MISSING_MID"] });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toEqual(
      Buffer.concat([Buffer.from(`SYMBOLS SPAMC/1.5\r\nContent-length: ${raw.length}\r\n\r\n`), raw]),
    );
  });

  it("reads a ham verdict over tcp://, negative scores and no rules included", async () => {
    const fake = await serve("SPAMD/1.1 0 EX_OK\r\nContent-length: 0\r\nSpam: False ; -0.5 / 5.0\r\n\r\n");
    expect(await checkSpam(mail("hello"), `tcp://127.0.0.1:${fake.port}`)).toEqual({
      status: "ham",
      score: -0.5,
      threshold: 5,
      rules: [],
    });
  });

  it("is error, never a throw, for spamd's error codes, garbage, a refused connection and no answer", async () => {
    const error = { status: "error", score: null, threshold: null, rules: [] };
    const refusing = await serve("SPAMD/1.0 76 Bad header line: (EOF)\r\n");
    expect(await checkSpam(mail("hello"), `spamd://127.0.0.1:${refusing.port}`)).toEqual(error);
    const garbage = await serve("HTTP/1.1 400 Bad Request\r\n\r\n");
    expect(await checkSpam(mail("hello"), `spamd://127.0.0.1:${garbage.port}`)).toEqual(error);
    const noSpamHeader = await serve("SPAMD/1.1 0 EX_OK\r\nContent-length: 0\r\n\r\n");
    expect(await checkSpam(mail("hello"), `spamd://127.0.0.1:${noSpamHeader.port}`)).toEqual(error);

    const closed = await serve(null);
    await closed.stop();
    expect(await checkSpam(mail("hello"), `spamd://127.0.0.1:${closed.port}`)).toEqual(error);

    const silent = await serve(null);
    expect(await checkSpam(mail("hello"), `spamd://127.0.0.1:${silent.port}`, { timeoutMs: 100 })).toEqual(error);
    expect(silent.requests).toHaveLength(1);

    expect(await checkSpam(mail("hello"), "http://127.0.0.1:783")).toEqual(error);
  });

  it("parses spamd:// and tcp:// URLs, port 783 by default", () => {
    expect(parseSpamdUrl("spamd://spam.internal")).toEqual({ host: "spam.internal", port: 783 });
    expect(parseSpamdUrl("tcp://[::1]:1783")).toEqual({ host: "::1", port: 1783 });
    expect(() => parseSpamdUrl("http://spam.internal:783")).toThrow(/spamd:\/\/ or tcp:\/\//);
  });
});

describe("SPAMD_URL", () => {
  afterEach(() => {
    delete process.env.SPAMD_URL;
    resetEnvForTests();
  });

  it("takes spamd:// and tcp:// URLs and refuses anything else, naming the variable", () => {
    for (const good of ["spamd://127.0.0.1:783", "tcp://spamd.internal:1783", "spamd://spam"]) {
      process.env.SPAMD_URL = good;
      resetEnvForTests();
      expect(env().SPAMD_URL).toBe(good);
    }
    for (const bad of ["http://spam:783", "spamd://", "spamd://spam:99999", "tcp://spam:783/path"]) {
      process.env.SPAMD_URL = bad;
      resetEnvForTests();
      expect(() => env(), bad).toThrow(/SPAMD_URL: must be spamd:\/\/host:port or tcp:\/\/host:port/);
    }
  });
});

const hasSpamd = SPAMD_BINARY !== undefined;
if (!hasSpamd)
  console.warn(
    "check-spam.test.ts: no spamd binary (/usr/sbin/spamd): the test against a real SpamAssassin is SKIPPED. " +
      "Install Debian's `spamassassin` package (apt-get install -y spamassassin) to run it; .ci/run does.",
  );

describe.skipIf(!hasSpamd)("checkSpam against a real spamd (Debian's spamassassin)", () => {
  let spamd: RealSpamd | undefined;

  beforeAll(async () => {
    spamd = await startRealSpamd(SPAMD_BINARY!);
  }, 120_000);

  afterAll(async () => {
    await spamd?.stop();
  });

  it("says spam for GTUBE and ham for a plain reply", async () => {
    const url = spamd!.url;
    const spam = await checkSpam(mail(`This is the GTUBE:\r\n${GTUBE}`), url);
    expect(spam).toMatchObject({ status: "spam", threshold: 5 });
    expect(spam.score).toBeGreaterThan(5);
    expect(spam.rules).toContain("GTUBE");

    const ham = await checkSpam(mail("Thanks, that answers my question about the receipt.\r\n\r\nAna"), url);
    expect(ham).toMatchObject({ status: "ham", threshold: 5 });
    expect(ham.score).toBeLessThan(5);
    expect(ham.rules).not.toContain("GTUBE");
  });

  it("scores a template's content for the content check: spammy content an error naming GTUBE, clean a note", async () => {
    useSpamd(spamd!.url);
    const spammy = spamFinding(
      await spamVerdict({ subject: "Offer", html: `<p>${GTUBE}</p>`, text: `This is the GTUBE: ${GTUBE}` }),
    );
    expect(spammy).toMatchObject({ rule: "spam_score", severity: "error" });
    expect(spammy.message).toMatch(/^SpamAssassin scores it [\d.]+ \(spam at 5\)\. Rules: .*GTUBE/);
    const clean = spamFinding(
      await spamVerdict({
        subject: "Your receipt",
        html: "<p>Thanks for your order of two notebooks. Your receipt number is 1042.</p>",
        text: "Thanks for your order of two notebooks. Your receipt number is 1042.",
      }),
    );
    expect(clean.severity).toBe("info");
    expect(clean.message).toMatch(/^SpamAssassin scores it -?[\d.]+ \(spam at 5\)/);
    useSpamd(undefined);
  });
});

/** The content check reads SPAMD_URL from the settings. */
function useSpamd(url: string | undefined) {
  if (url) process.env.SPAMD_URL = url;
  else delete process.env.SPAMD_URL;
  resetEnvForTests();
}
