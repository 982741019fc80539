import { describe, expect, it } from "vitest";
import { signUnsubscribeToken } from "@/lib/domain/unsubscribe/token";
import { clickUrl, openPixelUrl, signClickToken, signOpenToken, verifyClickToken, verifyOpenToken } from "./token";

const MESSAGE = "em_0123456789abcdef";

describe("tracking tokens", () => {
  it("round-trip the message id, and for clicks the link index and the link itself", () => {
    const open = signOpenToken(MESSAGE);
    expect(open).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyOpenToken(open)).toEqual({ kind: "open", messageId: MESSAGE });
    const url = "https://shop.example/orders/42?utm=mail&x=1#top";
    const click = signClickToken(MESSAGE, 3, url);
    expect(verifyClickToken(click)).toEqual({ kind: "click", messageId: MESSAGE, linkIndex: 3, url });
    // A link may hold anything, including the payload's separator.
    expect(verifyClickToken(signClickToken(MESSAGE, 0, "https://a.example/x\ny"))?.url).toBe("https://a.example/x\ny");
    expect(openPixelUrl(MESSAGE)).toBe(`http://localhost:3000/t/o/${open}`);
    expect(clickUrl(MESSAGE, 3, url)).toBe(`http://localhost:3000/t/c/${click}`);
  });

  it("an open token is no click token and the other way round", () => {
    expect(verifyClickToken(signOpenToken(MESSAGE))).toBeNull();
    expect(verifyOpenToken(signClickToken(MESSAGE, 0, "https://a.example/"))).toBeNull();
  });

  it("refuses tampered payloads and signatures, other keys' tokens and malformed input, without throwing", () => {
    const token = signClickToken(MESSAGE, 0, "https://good.example/");
    const [payload, mac] = token.split(".");
    const evil = Buffer.from(`c\n${MESSAGE}\n0\nhttps://evil.example/`).toString("base64url");
    expect(verifyClickToken(`${evil}.${mac}`)).toBeNull();
    const flipped = mac.slice(0, -2) + (mac.at(-2) === "A" ? "B" : "A") + mac.at(-1);
    expect(verifyClickToken(`${payload}.${flipped}`)).toBeNull();
    expect(verifyClickToken(`${payload}.${mac.slice(0, 20)}`)).toBeNull();
    expect(verifyClickToken(`${payload}.${Buffer.alloc(32).toString("base64url")}`)).toBeNull();
    // Same HMAC construction, another purpose's key: not a tracking token.
    expect(verifyOpenToken(signUnsubscribeToken(MESSAGE, "ada@example.org"))).toBeNull();
    const bad = [
      "",
      ".",
      payload,
      `${payload}.`,
      `${token}.x`,
      "a b.c",
      `${payload}.${mac}=`,
      "%2e%2e",
      "x".repeat(10_000),
    ];
    for (const value of bad) {
      expect(verifyClickToken(value)).toBeNull();
      expect(verifyOpenToken(value)).toBeNull();
    }
    expect(verifyOpenToken(undefined as unknown as string)).toBeNull();
  });

  it("a correctly signed click token still only leads to an http(s) link", () => {
    for (const url of ["javascript:alert(1)", "mailto:a@example.org", "//evil.example/", "/relative", "https://"]) {
      expect(verifyClickToken(signClickToken(MESSAGE, 0, url))).toBeNull();
    }
  });
});
