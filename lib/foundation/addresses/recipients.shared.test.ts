import addressParser from "email-addresses";
import { describe, expect, it, vi } from "vitest";
import { MAX_ENTRY_LENGTH, parseAddressList, parseMailbox, parseSimpleMailbox } from "./recipients.shared";

/** A small seeded generator, so a failure reproduces. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("parseSimpleMailbox", () => {
  // Mostly characters the shortcut takes, with a few of everything it must leave to the parser.
  const next = random(42);
  const pick = (chars: string) => chars[Math.floor(next() * chars.length)];
  const word = (chars: string, max: number) =>
    Array.from({ length: 1 + Math.floor(next() * max) }, () => pick(chars)).join("");
  const odd = 'é."(),:;<>@[]\\ ';
  const atext = "aZ09!#$%&'*+/=?^_`{|}~-";
  const maybeOdd = (chars: string) => (next() < 0.15 ? chars + odd : chars);
  const local = () =>
    Array.from({ length: 1 + Math.floor(next() * 2) }, () => word(maybeOdd(atext), 4)).join(next() < 0.1 ? ".." : ".");
  const domain = () => Array.from({ length: 1 + Math.floor(next() * 3) }, () => word(maybeOdd("ab9-"), 4)).join(".");
  const name = () => Array.from({ length: 1 + Math.floor(next() * 3) }, () => word(maybeOdd(atext), 5)).join(" ");
  const entry = () => {
    const address = `${local()}@${domain()}`;
    const form = next();
    const raw =
      form < 0.35
        ? address
        : form < 0.8
          ? `${name()} <${address}>`
          : form < 0.9
            ? `<${address}>`
            : `${name()}<${address}>`;
    return raw.replace(/\s+/g, " ").trim(); // as splitEntries hands them over
  };

  it("agrees with the RFC 5322 parser on every entry it takes", () => {
    let taken = 0;
    for (let i = 0; i < 5000; i++) {
      const input = entry();
      const simple = parseSimpleMailbox(input);
      if (!simple) continue;
      taken++;
      expect({ input, ...parseMailbox(input) }).toEqual({ input, ...simple });
    }
    expect(taken).toBeGreaterThan(1000);
  });

  it("leaves quoted names, comments, UTF-8 and dotless domains to the parser", () => {
    for (const input of [
      '"Doe, Jane" <jane@example.com>',
      "jane@example.com (Jane)",
      "Jörg <jorg@example.com>",
      "J. Doe <j@example.com>",
      "root@localhost",
    ]) {
      expect(parseSimpleMailbox(input)).toBeNull();
    }
    expect(parseAddressList('"Doe, Jane" <jane@example.com>, Jörg <jorg@example.com>', "to")).toEqual([
      { entry: '"Doe, Jane" <jane@example.com>', address: "jane@example.com", name: "Doe, Jane" },
      { entry: "Jörg <jorg@example.com>", address: "jorg@example.com", name: "Jörg" },
    ]);
    expect(() => parseAddressList("root@localhost", "to")).toThrow(/not an email address/);
  });
});

describe("parseAddressList on adversarial input", () => {
  it("refuses an entry longer than the cap before parsing it, naming the param", () => {
    // Refused by length alone: the RFC 5322 parser, which takes seconds over such input, never sees it.
    const parser = vi.spyOn(addressParser, "parseOneAddress");
    try {
      for (const input of ["a.".repeat(25_000), "(".repeat(2_000), `${"x".repeat(MAX_ENTRY_LENGTH)}@example.com`]) {
        expect(() => parseAddressList(input, "cc")).toThrow(
          expect.objectContaining({
            param: "cc",
            message: expect.stringMatching(/^cc holds .* longer than 510 characters/),
          }),
        );
      }
      expect(parser).not.toHaveBeenCalled();
      // The spy does see an entry that reaches the parser (a quoted name is not the shortcut's).
      expect(parseAddressList('"Doe, Jane" <jane@example.com>', "cc")).toHaveLength(1);
      expect(parser).toHaveBeenCalledTimes(1);
    } finally {
      parser.mockRestore();
    }
  });

  it("still takes an entry at the cap", () => {
    const entry = `"${"N".repeat(MAX_ENTRY_LENGTH - 19)}" <ab@example.com>`;
    expect(entry.length).toBe(MAX_ENTRY_LENGTH);
    expect(parseAddressList(entry, "to")[0].address).toBe("ab@example.com");
  });
});
