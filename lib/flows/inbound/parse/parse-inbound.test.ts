import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { MAX_HEADERS, parseInbound } from "./parse-inbound";
import { LOOP_HEADER } from "./types";

const crlf = (lines: string[]) => Buffer.from(lines.join("\r\n"), "utf8");

const REPLY = crlf([
  "Received: from mx.example.org by mx.postwerk.test; Sat, 28 Nov 2026 10:05:00 +0000",
  'From: "Jane Doe" <Jane.Doe@Example.ORG>',
  "To: Support <SUPPORT+ticket42@Inbound.Example.com>, other@example.com",
  "Cc: undisclosed-recipients:;, Team: Ann <ann@EXAMPLE.com>, bob@example.com;",
  "Reply-To: jane+replies@example.org",
  "Subject: =?UTF-8?Q?Re:_Caf=C3=A9_order?= =?UTF-8?B?IOKckw==?=",
  "Date: Sat, 28 Nov 2026 10:04:00 +0000",
  "Message-ID: <reply-1@example.org>",
  "In-Reply-To: <em_abc123@mail.example.com>",
  "References: <root@example.com>\r\n <em_abc123@mail.example.com>",
  "X-Long: folded\r\n\tover two lines",
  "MIME-Version: 1.0",
  'Content-Type: multipart/mixed; boundary="b1"',
  "",
  "--b1",
  'Content-Type: multipart/alternative; boundary="b2"',
  "",
  "--b2",
  "Content-Type: text/plain; charset=utf-8",
  "",
  "Yes, ship it.",
  "",
  "On Sat, Nov 28, 2026 at 10:00 AM Support <support@example.com> wrote:",
  "> Shall we ship your order?",
  "--b2",
  "Content-Type: text/html; charset=utf-8",
  "",
  "<p>Yes, ship it.</p><blockquote><p>Shall we ship your order?</p></blockquote>",
  "--b2--",
  "--b1",
  'Content-Type: text/plain; name="notes.txt"',
  'Content-Disposition: attachment; filename="notes.txt"',
  "",
  "some notes",
  "--b1",
  "Content-Type: image/png",
  "Content-ID: <logo@example.org>",
  "Content-Disposition: inline",
  "Content-Transfer-Encoding: base64",
  "",
  "iVBORw0KGgo=",
  "--b1--",
  "",
]);

describe("parseInbound", () => {
  it("reads a multipart reply: addresses lower-cased, ids, bodies, the stripped reply and attachments", async () => {
    const parsed = await parseInbound(REPLY);
    expect(parsed.from).toEqual({ address: "jane.doe@example.org", name: "Jane Doe" });
    expect(parsed.to).toEqual([
      { address: "support+ticket42@inbound.example.com", name: "Support" },
      { address: "other@example.com", name: null },
    ]);
    expect(parsed.cc.map((a) => a.address)).toEqual(["ann@example.com", "bob@example.com"]);
    expect(parsed.replyTo).toEqual([{ address: "jane+replies@example.org", name: null }]);
    expect(parsed.subject).toBe("Re: Café order ✓");
    expect(parsed.date?.toISOString()).toBe("2026-11-28T10:04:00.000Z");
    expect(parsed.messageId).toBe("<reply-1@example.org>");
    expect(parsed.inReplyTo).toBe("<em_abc123@mail.example.com>");
    expect(parsed.references).toEqual(["<root@example.com>", "<em_abc123@mail.example.com>"]);
    expect(parsed.text).toContain("> Shall we ship your order?");
    expect(parsed.html).toContain("<blockquote>");
    expect(parsed.strippedText).toBe("Yes, ship it.");
    expect(parsed.strippedSignature).toBeNull();
    expect(parsed.sizeBytes).toBe(REPLY.length);
    expect(parsed.hopCount).toBe(0);
    const [notes, logo] = parsed.attachments;
    expect(notes).toMatchObject({ filename: "notes.txt", contentType: "text/plain", contentId: null, inline: false });
    expect(notes.content.toString()).toBe("some notes");
    expect(notes.size).toBe(10);
    expect(logo).toMatchObject({ contentType: "image/png", contentId: "logo@example.org", inline: true });
  });

  it("gives the headers in order, unfolded and decoded", async () => {
    const { headers } = await parseInbound(REPLY);
    expect(headers[0][0]).toBe("Received");
    expect(headers.map(([name]) => name).slice(1, 6)).toEqual(["From", "To", "Cc", "Reply-To", "Subject"]);
    expect(headers).toContainEqual(["Subject", "Re: Café order ✓"]);
    expect(headers).toContainEqual(["X-Long", "folded over two lines"]);
    expect(headers).toContainEqual(["References", "<root@example.com> <em_abc123@mail.example.com>"]);
  });

  it("strips an HTML-only reply through its text rendering", async () => {
    const parsed = await parseInbound(
      crlf([
        "From: a@example.org",
        "Subject: html",
        "Content-Type: text/html; charset=utf-8",
        "",
        "<div>Thanks, <b>done</b>.</div><div>On Sat, Nov 28, 2026 Support wrote:</div>",
        "<blockquote><p>Please confirm.</p></blockquote>",
      ]),
    );
    expect(parsed.text).toBeNull();
    expect(parsed.html).toContain("<b>done</b>");
    expect(parsed.strippedText).toBe("Thanks, done.");
  });

  it.each([
    [
      "Gmail",
      '<div dir="ltr">Thanks!</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Sat, Nov 28, 2026 at 10:02 AM Support &lt;<a href="mailto:s@e.com">s@e.com</a>&gt; wrote:<br></div><blockquote class="gmail_quote"><div>Did it work?</div></blockquote></div>',
      "Thanks!",
    ],
    [
      "Outlook",
      '<div><p>Approved.</p><p>Tom</p></div><hr style="display:inline-block;width:98%"><div id="divRplyFwdMsg"><b>From:</b> Bot &lt;bot@example.com&gt;<br><b>Sent:</b> Saturday, November 28, 2026 10:02 AM<br><b>To:</b> Tom &lt;tom@example.org&gt;<br><b>Subject:</b> Approval</div><div>Please approve.</div>',
      "Approved.\n\nTom",
    ],
  ])("strips a %s HTML-only reply", async (_, html, reply) => {
    const parsed = await parseInbound(
      crlf(["From: a@example.org", "Content-Type: text/html; charset=utf-8", "", html]),
    );
    expect(parsed.strippedText).toBe(reply);
  });

  it("counts every loop header, also past the headers it keeps", async () => {
    const filler = Array.from({ length: 250 }, (_, i) => `X-Filler-${i}: ${i}`);
    const parsed = await parseInbound(
      crlf([`${LOOP_HEADER}: 1`, ...filler, `${LOOP_HEADER}: 2`, `x-postwerk-loop: 3`, "Subject: loop", "", "body"]),
    );
    expect(parsed.headers).toHaveLength(MAX_HEADERS);
    expect(parsed.hopCount).toBe(3);
    expect(parsed.subject).toBe("loop");
  });

  it("reads a bare Message-ID and keeps only bracketed ids in References", async () => {
    const parsed = await parseInbound(
      crlf(["Message-ID: bare@example.org", "References: junk <a@x> more <b@y>", "", "hi"]),
    );
    expect(parsed.messageId).toBe("<bare@example.org>");
    expect(parsed.references).toEqual(["<a@x>", "<b@y>"]);
  });
});

describe("parseInbound on hostile input never throws", () => {
  it.each([
    ["empty", Buffer.alloc(0)],
    ["random bytes", randomBytes(64 * 1024)],
    ["no headers", Buffer.from("just a line of text\r\nand another\r\n")],
    ["NUL bytes", Buffer.from("Subject: \u0000\u0000\r\nFrom: \u0000@\u0000\r\n\r\n\u0000", "utf8")],
    [
      "broken MIME",
      crlf(['Content-Type: multipart/mixed; boundary="never"', "", "--nope", "Content-Type: text/plain", "", "x"]),
    ],
    ["bad encoded words", crlf(["Subject: =?x-unknown?Q?caf=E9?= =?utf-8?B?!!!?=", "Date: not a date", "", "x"])],
    ["unterminated addresses", crlf(['From: "unterminated <a@b', "To: <<<>>>, @, ;;;", "", "x"])],
  ])("%s", async (_, raw) => {
    const parsed = await parseInbound(raw);
    expect(typeof parsed.subject).toBe("string");
    expect(parsed.sizeBytes).toBe(raw.length);
    expect(parsed.date === null || !Number.isNaN(parsed.date.getTime())).toBe(true);
    expect(Array.isArray(parsed.headers)).toBe(true);
    expect(typeof parsed.strippedText).toBe("string");
  });

  it('gives subject "" and no from when there are no headers', async () => {
    const parsed = await parseInbound(Buffer.from("no headers at all"));
    expect(parsed.subject).toBe("");
    expect(parsed.from).toBeNull();
    expect(parsed.messageId).toBeNull();
  });

  it("decodes an unknown charset as bytes rather than failing", async () => {
    const parsed = await parseInbound(crlf(["Subject: =?x-unknown?Q?caf=E9?=", "", "x"]));
    expect(parsed.headers).toContainEqual(["Subject", "café"]);
  });
});
