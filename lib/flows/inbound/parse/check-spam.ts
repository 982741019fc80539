import "server-only";
import { connect } from "node:net";
import { errorFields, log } from "@/lib/foundation/log";
import type { SpamVerdict } from "./types";

const DEFAULT_PORT = 783;
const TIMEOUT_MS = 5_000;
/** Larger mails are not sent to spamd (spamc's own default skips them above 500 KB; spam is small). */
export const SPAM_CHECK_MAX_BYTES = 2 * 1024 * 1024;
/** A reply is a status line, two headers and rule names; anything this big is not spamd. */
const MAX_REPLY_BYTES = 64 * 1024;

const withoutScore = (status: "not_checked" | "error"): SpamVerdict => ({
  status,
  score: null,
  threshold: null,
  rules: [],
});

/**
 * SpamAssassin's verdict on a mail from the spamd at `spamdUrl` (`spamd://host:port` or `tcp://host:port`),
 * asked with the SYMBOLS command of the spamc protocol. Never throws: no URL (or a mail too large) is
 * not_checked, a refused connection, a malformed reply or no answer within 5 s is error.
 */
export async function checkSpam(
  raw: Buffer,
  spamdUrl: string | undefined,
  options: { timeoutMs?: number } = {},
): Promise<SpamVerdict> {
  if (!spamdUrl || raw.length > SPAM_CHECK_MAX_BYTES) return withoutScore("not_checked");
  try {
    const target = parseSpamdUrl(spamdUrl);
    const request = Buffer.concat([
      Buffer.from(`SYMBOLS SPAMC/1.5\r\nContent-length: ${raw.length}\r\n\r\n`, "latin1"),
      raw,
    ]);
    const reply = await exchange(target, request, options.timeoutMs ?? TIMEOUT_MS);
    return parseSpamdReply(reply);
  } catch (error) {
    log.warn("spam check failed; the mail is kept with spam verdict error", errorFields(error));
    return withoutScore("error");
  }
}

/** host and port of a `spamd://` or `tcp://` URL (port 783 when none is given). */
export function parseSpamdUrl(value: string): { host: string; port: number } {
  const url = new URL(value);
  if (url.protocol !== "spamd:" && url.protocol !== "tcp:") throw new Error(`not a spamd:// or tcp:// URL`);
  if (!url.hostname) throw new Error("the spamd URL names no host");
  return { host: url.hostname.replace(/^\[|\]$/g, ""), port: url.port ? Number(url.port) : DEFAULT_PORT };
}

/** Sends the request, half-closes, and reads until spamd closes the connection. */
function exchange(target: { host: string; port: number }, request: Buffer, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const socket = connect({ host: target.host, port: target.port });
    const timer = setTimeout(() => fail(new Error(`spamd did not answer within ${timeoutMs} ms`)), timeoutMs);
    function fail(error: Error) {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    }
    socket.on("connect", () => socket.end(request));
    socket.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REPLY_BYTES) return fail(new Error("spamd's reply is too large"));
      chunks.push(chunk);
    });
    socket.on("error", fail);
    socket.on("end", () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
  });
}

/** `SPAMD/1.1 0 EX_OK`, headers with `Spam: True ; 15.0 / 5.0`, a blank line, then the rule names. */
export function parseSpamdReply(reply: string): SpamVerdict {
  const split = reply.search(/\r?\n\r?\n/);
  const head = (split < 0 ? reply : reply.slice(0, split)).split(/\r?\n/);
  const body = split < 0 ? "" : reply.slice(split).trim();
  const status = /^SPAMD\/\d+\.\d+\s+(\d+)\s*(.*)$/.exec(head[0] ?? "");
  if (!status) throw new Error(`not a spamd reply: ${JSON.stringify(reply.slice(0, 80))}`);
  if (status[1] !== "0") throw new Error(`spamd answered ${status[1]} ${status[2]}`);
  const spam = head
    .map((line) => /^Spam:\s*(True|False|Yes|No)\s*;\s*(-?\d+(?:\.\d+)?)\s*\/\s*(-?\d+(?:\.\d+)?)\s*$/i.exec(line))
    .find(Boolean);
  if (!spam) throw new Error("spamd's reply has no Spam header");
  return {
    status: /^(true|yes)$/i.test(spam[1]) ? "spam" : "ham",
    score: Number(spam[2]),
    threshold: Number(spam[3]),
    rules: body
      .split(",")
      .map((rule) => rule.trim())
      .filter(Boolean),
  };
}
