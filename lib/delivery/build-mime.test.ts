import { describe, expect, it } from "vitest";
import { buildMime, type MailFields } from "./build-mime";
import { messageIdHeader, sendingDomain } from "./mime.shared";

const fields: MailFields = {
  from: "Acme Support <Support@Example.COM>",
  to: ["Ada Lovelace <ada@example.org>", "bob@example.net"],
  cc: ['"Doe, Jane" <jane@example.org>'],
  bcc: ["hidden@example.org"],
  replyTo: "replies@example.com",
  subject: "Your order",
  html: "<p>Hello <b>Ada</b></p>",
  text: "Hello Ada",
  references: "<order-1@shop.example> <order-2@shop.example>",
  attachments: [],
};

/** The header block of a raw message, unfolded. */
function headersOf(raw: string): string {
  return raw.slice(0, raw.indexOf("\r\n\r\n")).replace(/\r\n[ \t]+/g, " ");
}

describe("buildMime", () => {
  it("builds the headers, both alternatives and an envelope that includes Bcc", async () => {
    const date = new Date("2026-03-04T05:06:07.890Z");
    const mime = await buildMime("em_0123456789abcdef", fields, date);
    const headers = headersOf(mime.raw);

    expect(mime.messageIdHeader).toBe("<em_0123456789abcdef@example.com>");
    expect(headers).toMatch(/^Message-ID: <em_0123456789abcdef@example\.com>$/m);
    expect(headers).toMatch(/^From: Acme Support <Support@example\.com>$/m);
    expect(headers).toMatch(/^To: Ada Lovelace <ada@example\.org>, bob@example\.net$/m);
    expect(headers).toMatch(/^Cc: "Doe, Jane" <jane@example\.org>$/m);
    expect(headers).toMatch(/^Reply-To: replies@example\.com$/m);
    expect(headers).toMatch(/^References: <order-1@shop\.example> <order-2@shop\.example>$/m);
    expect(headers).toMatch(/^Subject: Your order$/m);
    expect(headers).toMatch(/^Date: Wed, 04 Mar 2026 05:06:07 \+0000$/m);
    expect(headers).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(mime.raw).not.toMatch(/^Bcc:/im);
    expect(mime.raw).not.toContain("hidden@example.org");

    expect(mime.raw).toMatch(/Content-Type: text\/plain[\s\S]*Hello Ada/);
    expect(mime.raw).toMatch(/Content-Type: text\/html[\s\S]*<p>Hello <b>Ada<\/b><\/p>/);
    expect(mime.raw).not.toMatch(/[^\r]\n/); // CRLF line ends, as on the wire

    expect(mime.envelope.from).toBe("Support@example.com"); // nodemailer lower-cases domains
    expect(mime.envelope.to).toEqual([
      "ada@example.org",
      "bob@example.net",
      "jane@example.org",
      "hidden@example.org",
    ]);
  });

  it("leaves out Reply-To, Cc and References when unset, and carries attachments", async () => {
    const mime = await buildMime("em_0123456789abcdef", {
      ...fields,
      cc: [],
      bcc: [],
      replyTo: null,
      references: null,
      attachments: [{ filename: "invoice.txt", contentType: "text/plain", content: Buffer.from("total: 42") }],
    });
    const headers = headersOf(mime.raw);
    expect(headers).not.toMatch(/^(Reply-To|Cc|References):/im);
    expect(headers).toMatch(/^Content-Type: multipart\/mixed;/m);
    expect(mime.raw).toContain('filename=invoice.txt');
    expect(mime.raw).toContain(Buffer.from("total: 42").toString("base64"));
    expect(mime.envelope.to).toEqual(["ada@example.org", "bob@example.net"]);
  });
});

describe("sending domain", () => {
  it("is the lower-cased domain of the sender's address", () => {
    expect(sendingDomain("Acme <hello@Mail.Example.com>")).toBe("mail.example.com");
    expect(messageIdHeader("em_x", "hello@example.com")).toBe("<em_x@example.com>");
    expect(() => sendingDomain("nobody")).toThrow(/no address/);
  });
});
