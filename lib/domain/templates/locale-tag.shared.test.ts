import { describe, expect, it } from "vitest";
import { canonicalLocale, chooseLocale, localeAncestors, localeChain, textDirection } from "./locale-tag.shared";

describe("canonicalLocale", () => {
  it("canonicalises case-insensitively, with underscores accepted", () => {
    expect(canonicalLocale("EN_us")).toEqual({ ok: true, locale: "en-US" });
    expect(canonicalLocale("zh-hant")).toEqual({ ok: true, locale: "zh-Hant" });
    expect(canonicalLocale("zh_HANT_tw")).toEqual({ ok: true, locale: "zh-Hant-TW" });
    expect(canonicalLocale(" pt-br ")).toEqual({ ok: true, locale: "pt-BR" });
    expect(canonicalLocale("sr_latn_rs")).toEqual({ ok: true, locale: "sr-Latn-RS" });
    // A deprecated code is replaced by its preferred one, so both name one variant.
    expect(canonicalLocale("iw")).toEqual({ ok: true, locale: "he" });
  });

  it("accepts a well-formed tag nobody uses, and says so for one that is not a tag at all", () => {
    expect(canonicalLocale("xx-YY")).toEqual({ ok: true, locale: "xx-YY" });
    for (const malformed of ["", "  ", "x", "123", "en--US", "en-", "fr CA", "e".repeat(80), "en-US-u"]) {
      const result = canonicalLocale(malformed);
      expect(result.ok, malformed).toBe(false);
      if (!result.ok) expect(result.reason).toMatch(/not a well-formed BCP 47 language tag/);
    }
  });
});

describe("the fallback chain", () => {
  it("goes from the most specific tag to the default locale", () => {
    expect(localeAncestors("zh-Hant-TW")).toEqual(["zh-Hant-TW", "zh-Hant", "zh"]);
    expect(localeAncestors("en-US-u-ca-gregory")).toEqual(["en-US", "en"]);
    expect(localeChain("fr-CA", "en")).toEqual(["fr-CA", "fr", "en"]);
    expect(localeChain("EN_gb", "en")).toEqual(["en-GB", "en"]);
    expect(localeChain("not a tag", "en")).toEqual(["en"]);
    expect(localeChain(null, "de")).toEqual(["de"]);
  });

  it("uses the exact variant, then the language's, then the default; it never fails", () => {
    const have = ["fr", "fr-CA", "zh-Hant"];
    expect(chooseLocale("fr-CA", "en", have)).toEqual({
      requestedLocale: "fr-CA",
      usedLocale: "fr-CA",
      chain: ["fr-CA", "fr", "en"],
    });
    expect(chooseLocale("fr_be", "en", have)).toMatchObject({ requestedLocale: "fr-BE", usedLocale: "fr" });
    expect(chooseLocale("de", "en", have)).toMatchObject({ requestedLocale: "de", usedLocale: "en", chain: ["en"] });
    expect(chooseLocale("zh-hant-tw", "en", have)).toMatchObject({ usedLocale: "zh-Hant" });
    expect(chooseLocale("%%", "en", have)).toMatchObject({ requestedLocale: "%%", usedLocale: "en" });
    expect(chooseLocale(undefined, "en", have)).toMatchObject({ requestedLocale: null, usedLocale: "en" });
  });
});

describe("textDirection", () => {
  it("is rtl for right-to-left languages and scripts, ltr otherwise", () => {
    for (const locale of ["ar", "ar-EG", "he", "fa", "ur", "ps", "yi", "az-Arab"])
      expect(textDirection(locale), locale).toBe("rtl");
    for (const locale of ["en", "fr-CA", "zh-Hant", "ja", "az", "ru", "not a tag"])
      expect(textDirection(locale), locale).toBe("ltr");
  });
});
