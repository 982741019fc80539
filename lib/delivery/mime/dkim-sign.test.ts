import { generateKeyPairSync } from "node:crypto";
import { text } from "node:stream/consumers";
import { dkimVerify } from "mailauth";
import DKIM from "nodemailer/lib/dkim";
import { describe, expect, it } from "vitest";
import { buildMime } from "./build-mime";
import { dkimTxtRecord } from "./dkim-keys";
import { dkimSign } from "./dkim-sign";

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const key = { domainName: "example.com", keySelector: "postwerk", privateKey };
const publicKeyBase64 = publicKey.export({ type: "spki", format: "der" }).toString("base64");

/** What nodemailer's own `dkim` option produces for the same message and key (the reference). */
async function nodemailerSigned(raw: string): Promise<string> {
  return text(
    new DKIM({ ...key, privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString() }).sign(raw),
  );
}

async function verified(raw: string) {
  const result = await dkimVerify(Buffer.from(raw), {
    resolver: async (name: string, type: string) => {
      if (type === "TXT" && name === "postwerk._domainkey.example.com") return [[dkimTxtRecord(publicKeyBase64)]];
      throw Object.assign(new Error(`no ${type} record for ${name}`), { code: "ENOTFOUND" });
    },
  });
  return result.results.map((entry: { status: { result: string } }) => entry.status.result);
}

describe("DKIM signing", () => {
  it("signs exactly as nodemailer's dkim option does, and the signature verifies", async () => {
    const mime = await buildMime(
      "em_TEST0000000000000001",
      {
        from: "Zoë Ünïcode <hello@example.com>",
        to: Array.from({ length: 12 }, (_, i) => `Reader ${i} with a long display name <reader${i}@example.org>`),
        cc: ["cc@example.org"],
        bcc: ["hidden@example.org"],
        replyTo: "support@example.com",
        subject: "Grüße — a subject long enough to be folded over more than one header line, with tabs\tand  spaces",
        html: "<p>Hello\t there,   with runs of   whitespace   </p>\n\n<p>and trailing blank lines</p>\n\n\n",
        text: "Hello  there \t\nline two   \n\n\n",
        references: "<thread-1@example.com> <thread-2@example.com>",
        attachments: [{ filename: "notes.txt", contentType: "text/plain", content: Buffer.from("a  b \r\n\r\n") }],
        listUnsubscribe: "https://postwerk.test/u/abc",
      },
      new Date("2026-11-22T01:00:00Z"),
    );
    const ours = await dkimSign(mime.raw, key);
    expect(ours).toBe(await nodemailerSigned(mime.raw));
    expect(ours.replace(/\r\n(?=[ \t])/g, "")).toMatch(
      /^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=example\.com; q=dns\/txt; s=postwerk;/,
    );
    expect(await verified(ours)).toEqual(["pass"]);
  });

  it("matches nodemailer for an empty body and a body without a final line break", async () => {
    for (const raw of [
      "From: a@example.com\r\nSubject: x\r\n\r\n",
      "From: a@example.com\r\nSubject:  y \r\n\r\nno final break  ",
    ]) {
      expect(await dkimSign(raw, key)).toBe(await nodemailerSigned(raw));
    }
  });

  it("a changed body no longer verifies", async () => {
    const mime = await buildMime("em_TEST0000000000000002", {
      from: "hello@example.com",
      to: ["ada@example.org"],
      cc: [],
      bcc: [],
      replyTo: null,
      subject: "Hi",
      html: "<p>Hi</p>",
      text: "Hi",
      references: null,
      attachments: [],
    });
    const signed = await dkimSign(mime.raw, key);
    expect(await verified(signed.replace("Hi</p>", "Ho</p>"))).not.toEqual(["pass"]);
  });
});
