import { type AddressObject, simpleParser } from "mailparser";
import addressparser from "nodemailer/lib/addressparser";
import { describe, expect, it } from "vitest";
import { buildMime, type MailFields, type MimeAttachment } from "./build-mime";
import { buildMimeWithMailComposer } from "@/lib/testing/build-mime-reference";
import { readMailbox } from "@/lib/foundation/addresses/recipients.shared";
import { parseEntry } from "./mime-addresses";

// buildMime replaced nodemailer's MailComposer (build-mime-reference.ts). Both build each input here;
// a mail client (mailparser) must read the two messages alike, and both envelopes must be equal.

const date = new Date("2026-03-04T05:06:07.000Z");
const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001", "hex");
const pdf = Buffer.from(Array.from({ length: 700 }, (_, i) => (i * 37) % 256));

const base: MailFields = {
  from: "Acme Support <support@example.com>",
  to: ["Ada Lovelace <ada@example.org>"],
  cc: [],
  bcc: [],
  replyTo: null,
  subject: "Your order",
  html: "<p>Hello <b>Ada</b></p>",
  text: "Hello Ada",
  references: null,
  attachments: [],
};

const longWords =
  "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore. ";
const cases: Array<[string, Partial<MailFields>]> = [
  ["a plain message", {}],
  [
    "unicode names and subject",
    {
      from: "Zoë Ünïcode <zoe@example.com>",
      to: ["山田太郎 <taro@example.jp>", "Émile 😀 Zola <emile@example.fr>"],
      subject: "Grüße aus München — 日本語の件名 😀",
    },
  ],
  ["a long subject folded over several lines", { subject: `${longWords}${longWords}with ünïcode at the end` }],
  ["a long ASCII subject and a word longer than a line", { subject: `${longWords}${"x".repeat(120)} end` }],
  [
    "quotes, commas and specials in names",
    {
      to: [
        '"Doe, Jane" <jane@example.org>',
        '"The \\"Boss\\"" <boss@example.org>',
        "O'Brien <ob@example.org>",
        '"a.b" <ab@example.org>',
      ],
    },
  ],
  [
    "encoded-word look-alikes and control characters",
    { subject: "=?utf-8?Q?fake?= and =?x?Q?a b?= tab\tbell\x07 line\nbreak" },
  ],
  [
    "IDN and unicode addresses",
    {
      from: "Shop <shop@Bücher.DE>",
      to: ["jane@bücher.de", "Üser <üser@bücher.de>", "UPPER@ÉXAMPLE.com"],
      cc: ["first.last@xn--bcher-kva.de"],
    },
  ],
  [
    "cc, bcc, reply-to and duplicates across them",
    {
      cc: ["Bob <bob@example.net>", "ada@example.org"],
      bcc: ["hidden@example.org", "BOB@example.net"],
      replyTo: '"Replies, Team" <replies@example.com>',
    },
  ],
  [
    "groups and odd entries",
    {
      to: [
        "Friends: a@example.org, B <b@example.org>;",
        "undisclosed-recipients:;",
        "<bare@example.org>",
        "a@[127.0.0.1]",
      ],
    },
  ],
  [
    "references and list-unsubscribe",
    {
      references: "<a@shop.example> b@shop.example < c @ d >",
      listUnsubscribe: `https://postwerk.test/u/${"t".repeat(140)}`,
    },
  ],
  [
    "long lines of ASCII (quoted-printable)",
    { text: `${longWords.repeat(5)}\n\n${"y".repeat(300)}`, html: `<p>${longWords.repeat(8)}</p>` },
  ],
  ["lines of exactly 76 and 77 characters", { text: `${"a".repeat(76)}\n${"b".repeat(77)}\n${"c".repeat(75)} ` }],
  [
    "mostly non-Latin text (base64)",
    { text: "日本語のテキストです。\n二行目。", html: "<p>Привет, мир! Как дела?</p>" },
  ],
  [
    "trailing whitespace, tabs, dots and From lines",
    { text: "trailing  \n\ttab\t\n.dot\nFrom me\n=equals=\n", html: "<pre>a \t\n</pre>\n\n" },
  ],
  ["CRLF, LF and CR line breaks", { text: "one\r\ntwo\nthree\rfour\r\n", html: "<p>x</p>\r\n<p>ü</p>\n" }],
  ["emoji, surrogates and a lone surrogate", { text: "smile 😀 and \ud83d alone", subject: "😀😀😀 ".repeat(20) }],
  ["an empty text (HTML only)", { text: "" }],
  ["an empty HTML (text only)", { html: "" }],
  ["neither text nor HTML", { html: "", text: "" }],
  ["one attachment", { attachments: [file("invoice.pdf", "application/pdf", pdf)] }],
  [
    "attachments with non-ASCII, long and special file names",
    {
      attachments: [
        file("résumé.pdf", "application/pdf", pdf),
        file(`${"long-name-".repeat(12)}.txt`, "text/plain", Buffer.from("a\nb")),
        file('quo"te; semi=colon.txt', "text/plain", Buffer.from("")),
        file("日本語ファイル名.docx", "application/octet-stream", pdf),
        file("noext", "application/octet-stream", png),
      ],
    },
  ],
  [
    "inline images referenced by cid",
    {
      html: '<p><img src="cid:logo@acme"></p>',
      attachments: [
        file("logo.png", "image/png", png, "logo@acme"),
        file("data.csv", "text/csv", Buffer.from("a,b\n1,2\n"), "data"),
      ],
    },
  ],
  [
    "inline images and attachments, text and HTML",
    {
      attachments: [
        file("logo.png", "image/png", png, "logo"),
        file("a.pdf", "application/pdf", pdf),
        file("b.pdf", "application/pdf", pdf),
      ],
    },
  ],
  ["a cid attachment without HTML", { html: "", attachments: [file("logo.png", "image/png", png, "logo")] }],
  ["only an attachment", { html: "", text: "", attachments: [file("a.pdf", "application/pdf", pdf)] }],
  [
    "only attachments",
    { html: "", text: "", attachments: [file("a.pdf", "application/pdf", pdf), file("b.png", "image/png", png)] },
  ],
  [
    "a forwarded message/rfc822",
    {
      attachments: [
        file("fwd.eml", "message/rfc822", Buffer.from("From: x@example.org\r\nSubject: inner\r\n\r\nbody\r\n")),
      ],
    },
  ],
  [
    "a large HTML body over 128 KiB",
    { html: `<div>${"<p>paragraph with some words and ünïcode</p>\n".repeat(3500)}</div>` },
  ],
];

// Entries that lib/foundation/addresses reads with the full parser (comments, quoted local parts, groups): kept out
// of `cases` so the generated combinations below stay the ones they were.
const addressCases: Array<[string, Partial<MailFields>]> = [
  [
    "comments, quoted local parts and domain literals",
    {
      to: [
        "jane@example.com (Jane)",
        "ann@example.org (Ann) (Lee)",
        "<j@example.org (in brackets)>",
        "(before) <b@example.org>",
        "Ann <ann@example.org> (work)",
      ],
      cc: [
        '"a b"@example.com',
        '"a.b"@example.org',
        '"a\\"b"@example.org',
        'Name <"x y"@example.org>',
        '"user@evil.com"@example.org',
        "a@[IPv6:::1]",
        "B <b@[192.0.2.1]>",
      ],
    },
  ],
  [
    "groups with names, comments and IDN",
    {
      to: [
        "Team (core): Ada <ada@bücher.de>, bob@example.org (Bob);",
        "Nobody:;",
        '"Doe, Jane" (HR) <jane@example.org>',
      ],
    },
  ],
];

function file(filename: string, contentType: string, content: Buffer, cid?: string): MimeAttachment {
  return { filename, contentType, content, ...(cid ? { cid } : {}) };
}

/** What a mail client reads: every header but the boundary, the addresses, bodies (line ends as LF), the parts. */
async function asRead(raw: string) {
  const mail = await simpleParser(raw);
  const addresses = (value: AddressObject | AddressObject[] | undefined) =>
    [value ?? []].flat().map((object) => object.value);
  // Sorted: the header order of a message that is a single attachment differs (it is not meaningful).
  const headers = [...mail.headers]
    .filter(([key]) => !["content-type", "from", "to", "cc", "reply-to"].includes(key))
    .sort(([a], [b]) => a.localeCompare(b));
  const body = (value: string | false | undefined) =>
    typeof value === "string" ? value.replace(/\r\n?/g, "\n") : value;
  return {
    headers,
    contentType: (mail.headers.get("content-type") as { value: string }).value,
    from: addresses(mail.from),
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    replyTo: addresses(mail.replyTo),
    bcc: mail.bcc,
    text: body(mail.text),
    html: body(mail.html),
    attachments: mail.attachments.map((part) => ({
      filename: part.filename,
      contentType: part.contentType,
      disposition: part.contentDisposition,
      cid: part.cid,
      related: part.related,
      content: part.content.toString("base64"),
    })),
  };
}

describe("buildMime against MailComposer", () => {
  it.each([...cases, ...addressCases])("reads alike: %s", async (_name, overrides) => {
    const fields = { ...base, ...overrides };
    const ours = await buildMime("em_0123456789abcdef", fields, date);
    const reference = await buildMimeWithMailComposer("em_0123456789abcdef", fields, date);
    expect(ours.envelope).toEqual(reference.envelope);
    expect(ours.messageIdHeader).toBe(reference.messageIdHeader);
    expect(await asRead(ours.raw)).toEqual(await asRead(reference.raw));
    expectWellFormed(ours.raw, fields);
  });

  it("reads alike for generated combinations of the cases' fields", async () => {
    for (let i = 0; i < 60; i++) {
      const fields: MailFields = { ...base };
      for (let j = 0; j < 4; j++) Object.assign(fields, cases[(i * 7 + j * 11) % cases.length][1]);
      const ours = await buildMime(`em_gen${i}`, fields, date);
      const reference = await buildMimeWithMailComposer(`em_gen${i}`, fields, date);
      expect(ours.envelope).toEqual(reference.envelope);
      expect(await asRead(ours.raw)).toEqual(await asRead(reference.raw));
      expectWellFormed(ours.raw, fields);
    }
  });

  it("reads other entries through lib/foundation/addresses as addressparser did", () => {
    const entries = [
      "Friends: a@example.org, B <b@example.org>;",
      "undisclosed-recipients:;",
      "<bare@example.org>",
      "a@[127.0.0.1]",
      "jane@example.com (Jane)",
      "jane@example.com (J\\)ane) (Doe)",
      "<j@e.org (x)>",
      "(outer) <j@e.org>",
      '"a b"@example.com',
      '"a\\"b"@x.org',
      'Name <"a b"@x.org>',
      '"user@evil.com"@good.com',
      "Dr. Who <w@x.org>",
      "Jane (x) <j@e.org>",
      '"Doe, Jane" <jane@example.org>',
      "Émile 😀 Zola <emile@example.fr>",
      "Üser <üser@bücher.de>",
      "UPPER@ÉXAMPLE.com",
      "=?utf-8?Q?J=C3=A9?= <j@example.org>",
      "Team: ;",
      "😀@emoji.example",
    ];
    for (const entry of entries) expect(parseEntry(entry), entry).toEqual(addressparser(entry));
  });

  it("reads the plain entries as addressparser does", () => {
    const parts = ["a", "Z", "0", "_", ".", "-", "+", "%", "x.y", "b-c", "-x", "x-"];
    for (const a of parts) {
      for (const b of parts) {
        for (const entry of [
          `${a}${b}@${b}${a}`,
          `${a} ${b} <${a}@x${b}>`,
          `Name <${a}${b}@ex.${b}>`,
          `${a}@${b}.${a}`,
        ]) {
          // An entry no RFC 5322 reading accepts (`a.@.a`) was never stored (the API refuses it): it names nobody.
          expect(parseEntry(entry)).toEqual(readMailbox(entry, { rejectTLD: false }) ? addressparser(entry) : []);
        }
      }
    }
  });
});

/**
 * CRLF line ends only, no line over 998 characters, no Bcc, encoded lines within 76 characters, and
 * ASCII only (headers encoded) unless an address has a non-ASCII local part, which needs SMTPUTF8.
 */
function expectWellFormed(raw: string, fields: MailFields): void {
  const utf8Address = [fields.from, ...fields.to, ...fields.cc, fields.replyTo ?? ""].some((entry) =>
    /[^\x00-\x7f][^@<>\s]*@/.test(entry),
  );
  if (!utf8Address) expect(raw).toMatch(/^[\x00-\x7f]*$/);
  expect(raw).not.toMatch(/\r(?!\n)|(?<!\r)\n/);
  expect(raw.endsWith("\r\n")).toBe(true);
  expect(raw).not.toMatch(/^Bcc:/im);
  for (const line of raw.split("\r\n")) expect(line.length).toBeLessThanOrEqual(998);
  for (const part of raw.split(/\r\n--[^\r\n]+\r\n/)) {
    const split = part.indexOf("\r\n\r\n");
    if (!/^Content-Transfer-Encoding: (quoted-printable|base64)$/im.test(part.slice(0, split))) continue;
    for (const line of part.slice(split + 4).split("\r\n"))
      if (!line.startsWith("--")) expect(line.length).toBeLessThanOrEqual(76);
  }
}
