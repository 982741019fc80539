import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { positiveSerial, selfSignedCertificate } from "./self-signed-certificate";

describe("selfSignedCertificate", () => {
  it("makes a serial that is a positive, unpadded INTEGER whatever the random bytes", () => {
    for (let first = 0; first < 256; first++) {
      for (const second of [0x00, 0x7f, 0x80, 0xff]) {
        const serial = positiveSerial(Buffer.from([first, second, 1, 2, 3, 4, 5, 6]));
        expect(serial[0]).toBeGreaterThanOrEqual(0x01);
        expect(serial[0]).toBeLessThanOrEqual(0x7f);
      }
    }
  });

  it("makes a certificate Node (OpenSSL) parses", () => {
    expect(new X509Certificate(selfSignedCertificate().pem).subject).toContain("sns.test.local");
  });
});
