import "server-only";
import { createHash, sign } from "node:crypto";
import { domainToASCII } from "node:url";
import { foldLines } from "@/internals/nodemailer";
import type { DkimSigningKey } from "./dkim-keys";

/** The header fields signed when present: nodemailer's default list (RFC 4871 section 5.5). */
const SIGNED_FIELDS = (
  "From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding:" +
  "Content-ID:Content-Description:Resent-Date:Resent-From:Resent-Sender:Resent-To:Resent-Cc:Resent-Message-ID:" +
  "In-Reply-To:References:List-Id:List-Help:List-Unsubscribe:List-Subscribe:List-Post:List-Owner:List-Archive:OTP-Token"
)
  .toLowerCase()
  .split(":");

export interface DkimSignOptions {
  /** Fields the next hop rewrites (SES: Message-ID and Date), which would break the signature. */
  unsignedFields?: string[];
}

/**
 * The DKIM-Signature nodemailer's `dkim` option would add (rsa-sha256, relaxed/relaxed), the RSA operation on
 * libuv's thread pool so the event loop keeps sending meanwhile.
 */
export async function dkimSign(raw: string, key: DkimSigningKey, options: DkimSignOptions = {}): Promise<string> {
  const split = raw.indexOf("\r\n\r\n");
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? "" : raw.slice(split + 4);
  const bodyHash = createHash("sha256").update(relaxedBody(body), "utf8").digest("base64");
  const { headers, fieldNames } = relaxedHeaders(head, options.unsignedFields ?? []);
  const tags = [
    "v=1",
    "a=rsa-sha256",
    "c=relaxed/relaxed",
    `d=${domainToASCII(clean(key.domainName)) || clean(key.domainName)}`,
    "q=dns/txt",
    `s=${clean(key.keySelector)}`,
    `bh=${bodyHash}`,
    `h=${fieldNames}`,
  ].join("; ");
  const field = `${foldLines(`DKIM-Signature: ${tags}`, 76)};\r\n b=`;
  const signed = `${headers}dkim-signature:${relaxedValue(field)}`;
  const signature = await new Promise<Buffer>((resolve, reject) =>
    sign("sha256", Buffer.from(signed, "utf8"), key.privateKey, (error, value) =>
      error ? reject(error) : resolve(value),
    ),
  );
  const folded = signature
    .toString("base64")
    .replace(/(^.{73}|.{75}(?!\r?\n|\r))/g, "$&\r\n ")
    .trim();
  return `${field}${folded}\r\n${raw}`;
}

/** A tag value cannot carry control characters or the tag delimiters. */
const clean = (value: string) => value.replace(/[\x00-\x1f\x7f;=]/g, "");

/** RFC 6376 3.4.4: whitespace runs to one SP, none at line ends, no empty lines at the end, CRLF-ended. */
function relaxedBody(body: string): string {
  const lines = body.split(/\r?\n/).map((line) => line.replace(/[ \t]+/g, " ").replace(/ $/, ""));
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines.length === 0 ? "" : `${lines.join("\r\n")}\r\n`;
}

/** RFC 6376 3.4.2 on the signed fields present, the last occurrence of each (as nodemailer signs). */
function relaxedHeaders(head: string, unsigned: string[]): { headers: string; fieldNames: string } {
  const fields: Array<{ key: string; line: string }> = [];
  for (const line of head.split(/\r?\n/)) {
    if (fields.length > 0 && /^[ \t]/.test(line)) fields[fields.length - 1].line += `\n${line}`;
    else if (/[^ \t\r]/.test(line))
      fields.push({
        key: line
          .slice(0, Math.max(0, line.indexOf(":")))
          .replace(/^[ \t]+|[ \t]+$/g, "")
          .toLowerCase(),
        line,
      });
  }
  const lastOf = new Map<string, string>();
  for (const field of fields) lastOf.set(field.key, field.line);
  const skipped = new Set(unsigned.map((name) => name.toLowerCase()));
  const names = SIGNED_FIELDS.filter((name) => lastOf.has(name) && !skipped.has(name));
  return {
    headers: names.map((name) => `${name}:${relaxedValue(lastOf.get(name)!)}\r\n`).join(""),
    fieldNames: names.join(":"),
  };
}

function relaxedValue(line: string): string {
  return line
    .slice(line.indexOf(":") + 1)
    .replace(/\r?\n/g, "")
    .replace(/[ \t]+/g, " ")
    .replace(/^ | $/g, "");
}
