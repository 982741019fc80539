import { describe, expect, it } from "vitest";
import { buildMime, type MailFields } from "./build-mime";
import { messageIdHeader, sendingDomain } from "@/lib/foundation/addresses/sender-address.shared";

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
  it("writes a reply's In-Reply-To beside its References (the reply API)", async () => {
    const reply = { ...fields, inReplyTo: "<question-7@mail.example.org>" };
    const headers = headersOf((await buildMime("em_0123456789abcdef", reply)).raw);
    expect(headers).toMatch(/^In-Reply-To: <question-7@mail\.example\.org>$/m);
    expect(headers).toMatch(/^References: <order-1@shop\.example> <order-2@shop\.example>$/m);
  });

  it("writes one X-Postwerk-Loop per hop of an inbound forward, and none for other mail", async () => {
    const forwarded = headersOf((await buildMime("em_1", { ...fields, loopHops: 2 })).raw);
    expect(forwarded.match(/^X-Postwerk-Loop: forwarded$/gm)).toHaveLength(2);
    expect(headersOf((await buildMime("em_1", fields)).raw)).not.toMatch(/^X-Postwerk-Loop:/m);
  });

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
    expect(headers).not.toMatch(/^In-Reply-To:/m);
    expect(headers).toMatch(/^Subject: Your order$/m);
    expect(headers).toMatch(/^Date: Wed, 04 Mar 2026 05:06:07 \+0000$/m);
    expect(headers).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(mime.raw).not.toMatch(/^Bcc:/im);
    expect(mime.raw).not.toContain("hidden@example.org");

    expect(mime.raw).toMatch(/Content-Type: text\/plain[\s\S]*Hello Ada/);
    expect(mime.raw).toMatch(/Content-Type: text\/html[\s\S]*<p>Hello <b>Ada<\/b><\/p>/);
    expect(mime.raw).not.toMatch(/[^\r]\n/); // CRLF line ends, as on the wire

    expect(mime.envelope.from).toBe("Support@example.com"); // nodemailer lower-cases domains
    expect(mime.envelope.to).toEqual(["ada@example.org", "bob@example.net", "jane@example.org", "hidden@example.org"]);
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
    expect(mime.raw).toContain("filename=invoice.txt");
    expect(mime.raw).toContain(Buffer.from("total: 42").toString("base64"));
    expect(mime.envelope.to).toEqual(["ada@example.org", "bob@example.net"]);
  });
});

describe("buildMime encodings", () => {
  const message = (overrides: Partial<MailFields>) =>
    buildMime("em_0123456789abcdef", { ...fields, bcc: [], ...overrides });

  it("encodes non-ASCII header text as RFC 2047 words folded within 76 characters, and quotes specials", async () => {
    const { raw } = await message({
      from: "Zoë <zoe@example.com>",
      to: ['"Doe, Jane" <jane@example.org>', "José Ñandú <jose@example.org>"],
      subject: "Grüße aus München, a subject long enough to need more than one encoded-word",
    });
    const head = raw.slice(0, raw.indexOf("\r\n\r\n"));
    expect(head).toMatch(/^From: =\?UTF-8\?Q\?Zo=C3=AB\?= <zoe@example\.com>$/m);
    expect(head).toMatch(
      /^To: "Doe, Jane" <jane@example\.org>, =\?UTF-8\?Q\?Jos=C3=A9_=C3=91and=C3=BA\?=\r\n <jose@example\.org>$/m,
    );
    expect(head).toContain(
      "Subject: =?UTF-8?Q?Gr=C3=BC=C3=9Fe_aus_M=C3=BCnchen=2C_a_su?=\r\n =?UTF-8?Q?bject_long_enough_",
    );
    for (const line of head.split("\r\n")) expect(line.length).toBeLessThanOrEqual(76);
  });

  it("writes IDN domains as A-labels in the headers and the envelope", async () => {
    const mime = await message({ to: ["Jane <jane@Bücher.de>"], cc: [] });
    expect(mime.raw).toMatch(/^To: Jane <jane@xn--bcher-kva\.de>$/m);
    expect(mime.envelope.to).toEqual(["jane@xn--bcher-kva.de"]);
  });

  it("sends long or non-ASCII text quoted-printable with soft breaks, and every line break as CRLF", async () => {
    const { raw } = await message({ text: `Grüße\n${"word ".repeat(30)}\rend`, html: "<p>a</p>\n<p>b</p>" });
    expect(raw).toContain("Content-Transfer-Encoding: quoted-printable\r\n\r\nGr=C3=BC=C3=9Fe\r\nword word");
    expect(raw).toMatch(/word =\r\nword/); // a soft break after a space
    expect(raw).toContain("word=20\r\nend\r\n--"); // the bare CR became CRLF, the space before it encoded
    expect(raw).toContain("Content-Transfer-Encoding: 7bit\r\n\r\n<p>a</p>\r\n<p>b</p>\r\n");
    expect(raw).not.toMatch(/\r(?!\n)|(?<!\r)\n/);
  });

  it("relates cid images to the HTML and wraps base64 attachments at 76 with an RFC 2231 file name", async () => {
    const bytes = Buffer.alloc(200, 7);
    const { raw } = await message({
      attachments: [
        { filename: "logo.png", contentType: "image/png", content: Buffer.from("png"), cid: "logo@acme" },
        { filename: "résumé.pdf", contentType: "application/pdf", content: bytes },
      ],
    });
    expect(raw).toMatch(/^Content-Type: multipart\/mixed;/m);
    expect(raw).toMatch(/^Content-Type: multipart\/related; type="text\/html";/m);
    expect(raw).toContain(
      "Content-ID: <logo@acme>\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: inline; filename=logo.png",
    );
    expect(raw).toContain('Content-Type: application/pdf; name="=?UTF-8?Q?r=C3=A9sum=C3=A9=2Epdf?="');
    expect(raw).toContain("Content-Disposition: attachment; filename*0*=utf-8''r%C3%A9sum%C3%A9.pdf");
    const encoded = bytes.toString("base64");
    expect(raw).toContain(`${encoded.slice(0, 76)}\r\n${encoded.slice(76, 152)}\r\n`);
  });

  it("uses boundaries unique per part and per message", async () => {
    const attachments = [{ filename: "logo.png", contentType: "image/png", content: Buffer.from("png"), cid: "logo" }];
    const boundaries = async () =>
      [...(await message({ attachments })).raw.matchAll(/boundary="([^"]+)"/g)].map((match) => match[1]);
    const [first, second] = [await boundaries(), await boundaries()];
    expect(first).toHaveLength(2);
    expect(new Set([...first, ...second]).size).toBe(4);
  });

  it("labels a multipart/* attachment type application/octet-stream: it has no parts of its own", async () => {
    const { raw } = await message({
      attachments: [{ filename: "a.bin", contentType: "multipart/mixed", content: Buffer.from("x") }],
    });
    expect(raw).toContain("Content-Type: application/octet-stream; name=a.bin");
  });

  it("sends a message/* attachment as text when it is UTF-8, and as base64 bytes when it is not", async () => {
    const latin1 = Buffer.concat([Buffer.from("Subject: caf"), Buffer.from([0xe9]), Buffer.from("\r\n\r\nbody\r\n")]);
    const { raw } = await message({
      attachments: [
        { filename: "ok.eml", contentType: "message/rfc822", content: Buffer.from("Subject: café\r\n\r\nbody\r\n") },
        { filename: "old.eml", contentType: "message/rfc822", content: latin1 },
      ],
    });
    expect(raw).toContain("Subject: café");
    expect(raw).toContain("Content-Type: application/octet-stream; name=old.eml");
    expect(raw).toContain(latin1.toString("base64"));
  });
});

describe("sending domain", () => {
  it("is the lower-cased domain of the sender's address", () => {
    expect(sendingDomain("Acme <hello@Mail.Example.com>")).toBe("mail.example.com");
    expect(messageIdHeader("em_x", "hello@example.com")).toBe("<em_x@example.com>");
    expect(() => sendingDomain("nobody")).toThrow(/no address/);
  });
});
