import { afterAll, describe, expect, it } from "vitest";
import { newId } from "@/lib/foundation/ids";
import { useSettings } from "@/lib/testing/settings";
import {
  bounceAddress,
  bounceLocalPart,
  replyLocalPart,
  verifyBounceLocalPart,
  verifyReplyLocalPart,
} from "./bounce-token";

const saved = { AUTH_SECRET: process.env.AUTH_SECRET };
afterAll(() => useSettings(saved));

describe("the return-path token", () => {
  it("names the message, verifies, and survives case folding; it is short and lowercase base32", () => {
    const id = newId("message");
    const local = bounceLocalPart(id);
    expect(local).toMatch(/^b-[a-z2-7]{42}$/);
    expect(local.length).toBeLessThanOrEqual(64); // RFC 5321's local-part limit
    expect(verifyBounceLocalPart(local)).toBe(id);
    expect(verifyBounceLocalPart(local.toUpperCase())).toBe(id);
    expect(bounceAddress(id, "Bounces.Example.com")).toBe(`${local}@bounces.example.com`);
    // Two ids differing only in case (base62) get distinct tokens.
    const twin =
      id.slice(0, -1) + (id.at(-1) === id.at(-1)!.toLowerCase() ? id.at(-1)!.toUpperCase() : id.at(-1)!.toLowerCase());
    if (twin !== id) expect(bounceLocalPart(twin)).not.toBe(local);
  });

  it("refuses an altered MAC or id, another secret's token, and anything that is not a token", () => {
    const id = newId("message");
    const local = bounceLocalPart(id);
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === "a" ? "b" : "a") + text.slice(at + 1);
    expect(verifyBounceLocalPart(flip(local, local.length - 1))).toBeNull();
    expect(verifyBounceLocalPart(flip(local, 5))).toBeNull();
    for (const other of [
      "",
      "b-",
      "fbl",
      "postmaster",
      `${local}x`,
      local.slice(0, -1),
      local.replace("b-", "c-"),
      `${local.slice(0, -1)}1`,
    ]) {
      expect(verifyBounceLocalPart(other)).toBeNull();
    }
    useSettings({ AUTH_SECRET: "another-secret-of-at-least-32-characters!" });
    expect(verifyBounceLocalPart(local)).toBeNull();
    expect(verifyBounceLocalPart(bounceLocalPart(id))).toBe(id);
    expect(() => bounceLocalPart("not-a-message-id")).toThrow();
  });
});

describe("the reply-address token", () => {
  it("names the message under its own key: a return-path token is no reply token, nor the reverse", () => {
    const id = newId("message");
    const reply = replyLocalPart(id);
    expect(reply).toMatch(/^r-[a-z2-7]{42}$/);
    expect(verifyReplyLocalPart(reply)).toBe(id);
    expect(verifyReplyLocalPart(reply.toUpperCase())).toBe(id);
    expect(verifyBounceLocalPart(reply)).toBeNull();
    expect(verifyReplyLocalPart(bounceLocalPart(id))).toBeNull();
    // Same id bytes, other key: swapping the prefix does not make a valid token of the other kind.
    expect(verifyBounceLocalPart(reply.replace(/^r-/, "b-"))).toBeNull();
    expect(verifyReplyLocalPart(bounceLocalPart(id).replace(/^b-/, "r-"))).toBeNull();
  });
});
