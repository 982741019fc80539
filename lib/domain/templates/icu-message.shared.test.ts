import { describe, expect, it } from "vitest";
import { formatMessage, messageProblem, parseMessage } from "./icu-message.shared";
import { messageFormatters } from "./intl-formats.shared";

function format(text: string, locale: string, values: Record<string, unknown> = {}) {
  return formatMessage(parseMessage(text), locale, (name) => values[name], messageFormatters).replace(/\s/g, " ");
}

const ITEMS =
  "{count, plural, =0 {no items} zero {zero:#} one {one:#} two {two:#} few {few:#} many {many:#} other {other:#}}";

describe("ICU plural rules", () => {
  const cases = (locale: string, counts: number[]) => counts.map((count) => format(ITEMS, locale, { count }));

  it("en: one and other", () => {
    expect(cases("en", [0, 1, 2, 5, 21, 1.5])).toEqual([
      "no items",
      "one:1",
      "other:2",
      "other:5",
      "other:21",
      "other:1.5",
    ]);
  });

  it("fr: 0 and 1.5 are one; large numbers are many", () => {
    expect(format("{n, plural, one {# article} other {# articles}}", "fr", { n: 0 })).toBe("0 article");
    expect(cases("fr", [1, 1.5, 2, 1000000])).toEqual(["one:1", "one:1,5", "other:2", "many:1 000 000"]);
  });

  it("ru: one, few, many, other", () => {
    expect(cases("ru", [1, 2, 5, 11, 21, 22, 25, 1.5])).toEqual([
      "one:1", "few:2", "many:5", "many:11", "one:21", "few:22", "many:25", "other:1,5",
    ]); // prettier-ignore
  });

  it("ar: zero, one, two, few, many, other", () => {
    const arabic = cases("ar", [1, 2, 3, 11, 100]).map((text) => text.replace(/[\u061c\u200f]/g, ""));
    expect(arabic).toEqual(["one:1", "two:2", "few:3", "many:11", "other:100"]);
    // An exact case wins over the category; without it, 0 is `zero` in Arabic.
    expect(format("{count, plural, zero {zero} other {other}}", "ar", { count: 0 })).toBe("zero");
    expect(format(ITEMS, "ar", { count: 0 })).toBe("no items");
  });

  it("offset, selectordinal and nested select", () => {
    const guests = "{n, plural, offset:1 =0 {nobody} =1 {{host}} one {{host} and # other} other {{host} and # others}}";
    expect(format(guests, "en", { n: 1, host: "Ada" })).toBe("Ada");
    expect(format(guests, "en", { n: 2, host: "Ada" })).toBe("Ada and 1 other");
    expect(format(guests, "en", { n: 4, host: "Ada" })).toBe("Ada and 3 others");
    expect(format("{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}", "en", { n: 22 })).toBe("22nd");
    const pronoun = "{g, select, female {She has {n, plural, one {# cat} other {# cats}}} other {They have # cats}}";
    expect(format(pronoun, "en", { g: "female", n: 1 })).toBe("She has 1 cat");
    expect(format(pronoun, "en", { g: "x", n: 3 })).toBe("They have # cats");
  });

  it("quotes with apostrophes and formats numbers in arguments", () => {
    expect(format("It''s '{literal}' {n}", "de", { n: 1234.5 })).toBe("It's {literal} 1.234,5");
    expect(format("l'article", "fr")).toBe("l'article");
    expect(format("{n, plural, other {'#' is #}}", "en", { n: 3 })).toBe("# is 3");
  });
});

describe("messageProblem", () => {
  it("names what is wrong", () => {
    expect(messageProblem("Hello {name}")).toBeNull();
    expect(messageProblem("Hello {name")).toMatch(/expected "}"/);
    expect(messageProblem("{n, plural, one {x}}")).toMatch(/needs an "other" case/);
    expect(messageProblem("{n, plural, lots {x} other {y}}")).toMatch(/"lots" is not a plural case/);
    expect(messageProblem("{n, date}")).toMatch(/not supported/);
    expect(messageProblem("stray }")).toMatch(/unexpected/);
    expect(messageProblem("{1x}")).toMatch(/not an argument name/);
  });
});
