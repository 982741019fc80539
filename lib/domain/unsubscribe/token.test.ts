import { describe, expect, it } from "vitest";
import { oneClickUnsubscribeUrl, signUnsubscribeToken, unsubscribeUrl, verifyUnsubscribeToken } from "./token";

describe("unsubscribe tokens", () => {
  it("round-trips the message id and the lower-cased address", () => {
    const token = signUnsubscribeToken("em_0123456789abcdef", "Ada.Lovelace@Example.ORG");
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyUnsubscribeToken(token)).toEqual({
      messageId: "em_0123456789abcdef",
      address: "ada.lovelace@example.org",
    });
    // Deterministic: the same message and recipient always get the same link.
    expect(signUnsubscribeToken("em_0123456789abcdef", "ada.lovelace@example.org")).toBe(token);
  });

  it("builds the page URL and the one-click URL under APP_URL", () => {
    const token = signUnsubscribeToken("em_x", "a@example.org");
    expect(unsubscribeUrl("em_x", "a@example.org")).toBe(`http://localhost:3000/u/${token}`);
    expect(oneClickUnsubscribeUrl("em_x", "a@example.org")).toBe(`http://localhost:3000/api/unsubscribe/${token}`);
  });

  it("refuses a tampered payload, a tampered or cut signature, and malformed tokens", () => {
    const token = signUnsubscribeToken("em_0123456789abcdef", "ada@example.org");
    const [payload, mac] = token.split(".");
    const otherPayload = Buffer.from("em_0123456789abcdef\nmallory@example.org").toString("base64url");
    expect(verifyUnsubscribeToken(`${otherPayload}.${mac}`)).toBeNull();
    const flipped = mac.slice(0, -2) + (mac.at(-2) === "A" ? "B" : "A") + mac.at(-1);
    expect(verifyUnsubscribeToken(`${payload}.${flipped}`)).toBeNull();
    expect(verifyUnsubscribeToken(`${payload}.${mac.slice(0, 20)}`)).toBeNull();
    for (const bad of ["", ".", payload, `${payload}.`, `${token}.x`, "a b.c", `${payload}.${mac}=`]) {
      expect(verifyUnsubscribeToken(bad)).toBeNull();
    }
    // A well-formed token with a signature not made with our key.
    const forged = `${payload}.${Buffer.alloc(32).toString("base64url")}`;
    expect(verifyUnsubscribeToken(forged)).toBeNull();
  });
});
