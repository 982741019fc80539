import { generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

/**
 * A self-signed X.509 certificate made in process (Node can parse certificates but not create them,
 * and the tests should not depend on an `openssl` binary): a minimal DER encoding of RFC 5280's
 * TBSCertificate, signed sha256WithRSAEncryption. Enough for `new X509Certificate(pem).publicKey`,
 * which is all an SNS signature check reads from it.
 */
export interface TestCertificate {
  pem: string;
  privateKey: KeyObject;
}

export function selfSignedCertificate(commonName = "sns.test.local"): TestCertificate {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const sha256WithRsa = seq(oid([0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b]), Buffer.from([0x05, 0x00]));
  const name = seq(set(seq(oid([0x55, 0x04, 0x03]), tlv(0x0c, Buffer.from(commonName, "utf8")))));
  const now = Date.now();
  const validity = seq(utcTime(new Date(now - 3600_000)), utcTime(new Date(now + 7 * 24 * 3600_000)));
  const serial = positiveSerial(randomBytes(8));
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([0x02]))), // version v3
    tlv(0x02, serial),
    sha256WithRsa,
    name,
    validity,
    name,
    publicKey.export({ type: "spki", format: "der" }),
  );
  const signature = sign("sha256", tbs, privateKey);
  const der = seq(tbs, sha256WithRsa, tlv(0x03, Buffer.concat([Buffer.from([0x00]), signature])));
  const body = der
    .toString("base64")
    .replace(/(.{64})/g, "$1\n")
    .trimEnd();
  return { pem: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`, privateKey };
}

/**
 * A serial number as a positive INTEGER in minimal DER: the first byte between 0x01 and 0x7f. A first
 * byte of 0x00 followed by one below 0x80 is padding that OpenSSL refuses: 1 certificate in 256 did
 * not parse, and the SNS tests failed on it once.
 */
export function positiveSerial(random: Buffer): Buffer {
  const serial = Buffer.from(random);
  serial[0] = (serial[0] & 0x7f) | 0x01;
  return serial;
}

function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const seq = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts));
const oid = (bytes: number[]) => tlv(0x06, Buffer.from(bytes));

function utcTime(date: Date): Buffer {
  const iso = date.toISOString(); // 2026-11-25T01:02:03.456Z → 261125010203Z
  const text =
    iso.slice(2, 4) +
    iso.slice(5, 7) +
    iso.slice(8, 10) +
    iso.slice(11, 13) +
    iso.slice(14, 16) +
    iso.slice(17, 19) +
    "Z";
  return tlv(0x17, Buffer.from(text, "ascii"));
}
