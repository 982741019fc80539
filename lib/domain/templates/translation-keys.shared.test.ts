import { describe, expect, it } from "vitest";
import type { TemplateWithVariants } from "./template-variant.shared";
import { assertTranslationsPresent, missingTranslationKeys, translationKeys } from "./translation-keys.shared";

const source = (bodyHtml: string, subject = "Hi", bodyText: string | null = null) => ({ subject, bodyHtml, bodyText });

describe("translationKeys", () => {
  it("finds {% t %} and | t keys in every field and inside blocks; keys computed at render time are not known", () => {
    const html = [
      '{% t "a.tag", name: name %}',
      '{{ "b.filter" | t: count: n | upcase }}',
      '{% if x %}{% for i in items %}{% t "c.nested" %}{% endfor %}{% else %}{{ "d.else" | t }}{% endif %}',
      '{% capture c %}{% t "e.capture" %}{% endcapture %}{% assign f = "f.assign" | t %}{% echo "g.echo" | t %}',
      "{% liquid\n  t 'h.liquid'\n%}",
      "{% t key_variable %}{{ name | t }}{{ 'i.not' | upcase | t }}",
    ].join("");
    expect(translationKeys(source(html, '{% t "subject.key" %}', '{{ "text.key" | t }}'))).toEqual([
      "a.tag",
      "b.filter",
      "c.nested",
      "d.else",
      "e.capture",
      "f.assign",
      "g.echo",
      "h.liquid",
      "subject.key",
      "text.key",
    ]);
  });
});

describe("the missing-translation lint", () => {
  const template: TemplateWithVariants = {
    ...source('{% t "hello" %} {% t "bye" %}'),
    defaultLocale: "en",
    variants: [
      {
        locale: "en",
        subject: null,
        bodyHtml: null,
        bodyText: null,
        messages: { hello: "Hello", bye: "Bye" },
        fallsBackForMissingKeys: false,
      },
      {
        locale: "fr",
        subject: null,
        bodyHtml: null,
        bodyText: null,
        messages: { hello: "Bonjour" },
        fallsBackForMissingKeys: false,
      },
      {
        locale: "fr-CA",
        subject: null,
        bodyHtml: null,
        bodyText: null,
        messages: { bye: "Bye là" },
        fallsBackForMissingKeys: false,
      },
      {
        locale: "de",
        subject: null,
        bodyHtml: '{% t "only.de" %}',
        bodyText: null,
        messages: {},
        fallsBackForMissingKeys: true,
      },
    ],
  };

  it("reads a region's table over its language's and a variant's own content", () => {
    expect(missingTranslationKeys(template, "en")).toEqual([]);
    expect(missingTranslationKeys(template, "fr")).toEqual(["bye"]);
    expect(missingTranslationKeys(template, "fr-CA")).toEqual([]);
    expect(missingTranslationKeys(template, "de")).toEqual(["only.de"]);
  });

  it("refuses naming each key, unless the variant falls back for missing keys", () => {
    expect(() => assertTranslationsPresent(template, "fr")).toThrow(
      expect.objectContaining({
        code: "TEMPLATE_MISSING_TRANSLATIONS",
        param: "messages",
        details: [expect.objectContaining({ index: 0, param: 'messages["bye"]' })],
      }),
    );
    expect(() => assertTranslationsPresent(template, "de")).not.toThrow();
  });
});
