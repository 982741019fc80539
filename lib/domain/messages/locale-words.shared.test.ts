import { describe, expect, it } from "vitest";
import { localeWords } from "./locale-words.shared";

describe("localeWords", () => {
  it("names the used locale, and the requested one only when it differs", () => {
    expect(localeWords({ locale: "fr-CA", requestedLocale: "fr-CA" })).toBe("fr-CA");
    expect(localeWords({ locale: "fr", requestedLocale: "fr-BE" })).toBe("fr (requested fr-BE)");
    expect(localeWords({ locale: "en", requestedLocale: null })).toBe("en (the template's default: none requested)");
    expect(localeWords({ locale: null, requestedLocale: null })).toBeNull();
  });
});
