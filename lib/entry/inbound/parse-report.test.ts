import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mulberry32, pick } from "@/lib/testing/fuzz";
import { classifyReport } from "./classify-report";
import { parseReport } from "./parse-report";
import { fixtureReport } from "./testing";

/**
 * The report reader on its own: what each fixture parses to, encodings, and hostile input (mangled
 * fixtures, pathological sizes and nesting): never an exception, always at least one event, and no
 * quadratic blow-up (a slow pattern would run past the test's timeout on the megabyte inputs).
 */
const FIXTURES = fs
  .readdirSync(path.join(import.meta.dirname, "testdata", "fixtures"))
  .filter((name) => name.endsWith(".eml"));
const values = {
  to: "b-x@bounces.example.com",
  returnPath: "b-x@bounces.example.com",
  recipient: "ada@example.org",
  messageId: "<em_0000000000000001@example.com>",
};
const read = (name: string) => parseReport(Buffer.from(fixtureReport(name, values), "latin1"));

describe("parseReport", () => {
  it("reads each fixture's kind, recipients and original", () => {
    const kinds = Object.fromEntries(FIXTURES.map((name) => [name, read(name).kind]));
    expect(kinds).toEqual({
      "delivered-dsn.eml": "dsn",
      "exchange-ndr.eml": "dsn",
      "exim-plain.eml": "text",
      "gmail-dsn.eml": "dsn",
      "mailbox-full.eml": "text",
      "out-of-office.eml": "text",
      "postfix-delayed.eml": "dsn",
      "postfix-hard.eml": "dsn",
      "rfc3464-example.eml": "dsn",
      "rfc5965-example.eml": "arf",
      "unclassifiable.eml": "text",
      "yahoo-arf.eml": "arf",
    });
    const gmail = read("gmail-dsn.eml");
    expect(gmail).toMatchObject({
      kind: "dsn",
      reportingMta: "googlemail.com",
      original: { messageId: values.messageId, returnPath: `<${values.returnPath}>` },
    });
    if (gmail.kind !== "dsn") throw new Error("not a DSN");
    expect(gmail.recipients).toEqual([
      expect.objectContaining({
        recipient: "ada@example.org",
        action: "failed",
        status: "5.1.1",
        diagnostic: expect.stringMatching(
          /^550-5\.1\.1 The email account that you tried to reach does not exist\. .* - gsmtp$/,
        ),
      }),
    ]);
    // Quoted-printable text part, soft line breaks joined.
    expect(gmail.text).toContain("because the address couldn't be found");
    // Base64 text part.
    expect(read("exchange-ndr.eml").text).toContain("couldn't be delivered");
    expect(read("yahoo-arf.eml")).toMatchObject({
      kind: "arf",
      feedbackType: "abuse",
      userAgent: "Yahoo!-Mail-Feedback/2.0",
      originalRecipients: ["ada@example.org"],
    });
    expect(read("out-of-office.eml").autoReply).toBe(true);
  });

  it("decodes an encoded Subject and keys a report by its Message-ID, or by its bytes without one", () => {
    const raw =
      "From: MAILER-DAEMON@x.example\r\nSubject: =?UTF-8?B?VW56dXN0ZWxsYmFy?= =?utf-8?q?_f=C3=BCr_ada?=\r\n\r\nuser unknown\r\n";
    const report = parseReport(Buffer.from(raw));
    expect(report.subject).toBe("Unzustellbar für ada");
    expect(parseReport(Buffer.from(raw)).key).toBe(report.key);
    expect(parseReport(Buffer.from(`${raw}x`)).key).not.toBe(report.key);
    const withId = (body: string) => parseReport(Buffer.from(`Message-ID: <r1@x>\r\n${raw}${body}`)).key;
    expect(withId("a")).toBe(withId("b"));
  });

  it("survives mangled and hostile reports: never throws, always at least one event", () => {
    const rng = mulberry32(16);
    const bases = FIXTURES.map((name) => fixtureReport(name, values));
    for (let round = 0; round < 400; round++) {
      let text = pick(rng, bases);
      const cut = Math.floor(rng() * text.length);
      switch (pick(rng, ["truncate", "drop-lines", "garbage", "no-boundary-end", "lf-only"] as const)) {
        case "truncate":
          text = text.slice(0, cut);
          break;
        case "drop-lines":
          text = text
            .split("\r\n")
            .filter(() => rng() > 0.2)
            .join("\r\n");
          break;
        case "garbage":
          text =
            text.slice(0, cut) +
            String.fromCharCode(...Array.from({ length: 64 }, () => Math.floor(rng() * 256))) +
            text.slice(cut);
          break;
        case "no-boundary-end":
          text = text.replace(/--\r\n$/, "\r\n");
          break;
        case "lf-only":
          text = text.replace(/\r\n/g, "\n");
          break;
      }
      const events = classifyReport(parseReport(Buffer.from(text, "latin1")));
      expect(events.length).toBeGreaterThan(0);
    }
  });

  it("reads pathological sizes and nesting without blowing up", () => {
    const nested =
      Array.from({ length: 200 }, (_, i) => `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n`).join(
        "",
      ) + "Content-Type: text/plain\r\n\r\nuser unknown\r\n";
    const hostile = [
      `From: postmaster@x\r\nSubject: Undeliverable\r\nContent-Type: text/plain; ${"a".repeat(1_000_000)}\r\n\r\n${"a".repeat(1_000_000)}`,
      `From: postmaster@x\r\nSubject: Undeliverable\r\nDate: ${"(".repeat(100_000)}\r\n\r\n${"5.5.".repeat(250_000)}`,
      `Content-Type: multipart/report; report-type=delivery-status; boundary=B\r\n\r\n--B\r\nContent-Type: message/delivery-status\r\n\r\n${"Final-Recipient: rfc822; a@b\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n".repeat(20_000)}--B--\r\n`,
      nested,
      "\r\n\r\n\r\n",
      "",
    ];
    for (const raw of hostile) {
      const events = classifyReport(parseReport(Buffer.from(raw, "latin1")));
      expect(events.length).toBeGreaterThan(0);
      expect(events.length).toBeLessThanOrEqual(150);
    }
  });
});
