import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { describe, expect } from "vitest";
import { itIsTheVersionWrittenFor, itStillHolds } from "./canary";
import * as nodemailer from "./nodemailer";

const { NODEMAILER } = nodemailer;

// What this version answers for the inputs lib/delivery/mime gives it: a change is a change of the MIME we send.
describe("nodemailer canary: the internal modules lib/delivery uses", () => {
  itIsTheVersionWrittenFor(NODEMAILER);

  itStillHolds(NODEMAILER, "the header encoders build the same words and lines", () => {
    expect(nodemailer.encodeWord("Grüße, Ada", "Q", 52)).toBe("=?UTF-8?Q?Gr=C3=BC=C3=9Fe=2C_Ada?=");
    expect(nodemailer.encodeWord("Grüße", "B", 52)).toBe("=?UTF-8?B?R3LDvMOfZQ==?=");
    expect(
      nodemailer.encodeWords(
        "Grüße and a long tail of many plain words to cross the fifty two limit Grüße",
        "Q",
        52,
        true,
      ),
    ).toBe(
      "=?UTF-8?Q?Gr=C3=BC=C3=9Fe_and_a_long_tail_of_many_?= =?UTF-8?Q?plain_words_to_cross_the_fifty_two_limit?= =?UTF-8?Q?_Gr=C3=BC=C3=9Fe?=",
    );
    expect(nodemailer.foldLines(`Subject: ${"word ".repeat(20)}`, 76)).toBe(
      "Subject: word word word word word word word word word word word word word\r\n word word word word word word word ",
    );
    expect(nodemailer.quoteString('Ada "the first" Lovelace')).toBe('"Ada \\"the first\\" Lovelace"');
  });

  itStillHolds(NODEMAILER, "the body and parameter encoders build the same text", () => {
    expect(nodemailer.qpEncode("Grüße = 100%")).toBe("Gr=C3=BC=C3=9Fe =3D 100%");
    expect(nodemailer.qpWrap("a".repeat(100), 76)).toBe(`${"a".repeat(75)}=\r\n${"a".repeat(25)}`);
    expect(nodemailer.buildHeaderValue({ value: "attachment", params: { filename: "Grüße.pdf" } })).toBe(
      "attachment; filename*0*=utf-8''Gr%C3%BC%C3%9Fe.pdf",
    );
    expect(nodemailer.parseHeaderValue('application/pdf; name="a b.pdf" (a comment)', { stripComments: true })).toEqual(
      { value: "application/pdf", params: { name: "a b.pdf" } },
    );
    expect(nodemailer.detectMimeType("report.pdf")).toBe("application/pdf");
    expect(nodemailer.detectExtension("image/png")).toBe("png");
  });

  itStillHolds(NODEMAILER, "the connection settings are read the same", () => {
    expect(nodemailer.normalizeDomain("BÜCHER.example", false)).toBe("xn--bcher-kva.example");
    expect(nodemailer.normalizeDomain("xn--bcher-kva.example", true)).toBe("bücher.example");
    expect(nodemailer.parseConnectionUrl("smtps://user:p%40ss@mail.example.com:465/?pool=true")).toEqual({
      secure: true,
      port: 465,
      host: "mail.example.com",
      auth: { user: "user", pass: "p@ss" },
      pool: true,
    });
  });

  itStillHolds(NODEMAILER, "an SMTPConnection connects, sends a finished message as it is and quits", async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["AUTH", "STARTTLS"],
      logger: false,
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => (received.push(Buffer.concat(chunks).toString()), callback()));
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.server.address() as AddressInfo;
      const smtp = new nodemailer.SMTPConnection({ host: "127.0.0.1", port, ignoreTLS: true });
      await new Promise<void>((resolve, reject) => (smtp.once("error", reject), smtp.connect(() => resolve())));
      const raw = "From: a@example.com\r\nTo: b@example.org\r\nSubject: canary\r\n\r\nHello\r\n";
      const info = await new Promise<{ accepted: unknown[] }>((resolve, reject) =>
        smtp.send({ from: "a@example.com", to: ["b@example.org"] }, raw, (error, sent) =>
          error ? reject(error) : resolve(sent),
        ),
      );
      expect(info.accepted).toEqual(["b@example.org"]);
      smtp.quit();
      expect(received).toEqual([raw]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
