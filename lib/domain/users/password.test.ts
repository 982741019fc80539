import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password";

describe("password hashing", () => {
  it("stores scrypt$N$r$p$salt$hash with a fresh salt each time, and verifies", async () => {
    const first = await hashPassword("correct horse battery staple");
    const second = await hashPassword("correct horse battery staple");
    expect(first).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword("correct horse battery staple", first)).toBe(true);
    expect(await verifyPassword("correct horse battery staple", second)).toBe(true);
  });

  it("rejects a wrong password and malformed or hostile hashes", async () => {
    const stored = await hashPassword("s3cret-password");
    expect(await verifyPassword("s3cret-passwore", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
    expect(await verifyPassword("s3cret-password", null)).toBe(false);
    expect(await verifyPassword("s3cret-password", "")).toBe(false);
    expect(await verifyPassword("s3cret-password", "bcrypt$2b$10$abc")).toBe(false);
    expect(await verifyPassword("s3cret-password", stored.replace("$16384$", "$16383$"))).toBe(false);
    // Parameters that would make one login allocate gigabytes are refused, not computed.
    expect(await verifyPassword("s3cret-password", stored.replace("$16384$", "$1073741824$"))).toBe(false);
    expect(await verifyPassword("s3cret-password", stored.slice(0, -4))).toBe(false);
  });

  it("verifies hashes made with other (valid) parameters", async () => {
    // A hash computed with N=1024: what a future change of defaults leaves behind.
    const { scryptSync } = await import("node:crypto");
    const salt = Buffer.from("0123456789abcdef");
    const hash = scryptSync("pw-older-params", salt, 32, { N: 1024, r: 8, p: 1 });
    const stored = `scrypt$1024$8$1$${salt.toString("base64url")}$${hash.toString("base64url")}`;
    expect(await verifyPassword("pw-older-params", stored)).toBe(true);
  });
});
