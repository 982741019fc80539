import { describe, expect, it } from "vitest";
import { renderTemplate } from "./render.shared";
import { resolveTemplateVariant, type TemplateWithVariants } from "./template-variant.shared";

const variant = (locale: string, fields: Partial<TemplateWithVariants["variants"][number]> = {}) => ({
  locale,
  subject: null,
  bodyHtml: null,
  bodyText: null,
  messages: {},
  fallsBackForMissingKeys: false,
  ...fields,
});

const TEMPLATE: TemplateWithVariants = {
  subject: "Hello",
  bodyHtml: '<p>{% t "a" %} {% t "__proto__" %}</p>',
  bodyText: 'Text {% t "a" %}',
  defaultLocale: "en",
  variants: [
    variant("en", { messages: JSON.parse('{"a": "A-en", "__proto__": "P-en"}') }),
    variant("fr", { bodyText: 'Texte {% t "a" %}', messages: JSON.parse('{"a": "A-fr", "__proto__": "P-fr"}') }),
    variant("fr-CA", { subject: "Allô", fallsBackForMissingKeys: true }),
  ],
};

describe("resolveTemplateVariant", () => {
  it("takes each field from the most specific locale that sets it, and the default's table for the rest", () => {
    const resolved = resolveTemplateVariant(TEMPLATE, "fr_ca");
    expect(resolved).toMatchObject({
      requestedLocale: "fr-CA",
      usedLocale: "fr-CA",
      fallsBackForMissingKeys: true,
      source: { subject: "Allô", bodyHtml: TEMPLATE.bodyHtml, bodyText: 'Texte {% t "a" %}' },
    });
    const rendered = renderTemplate(resolved.source, {}, { locale: resolved.localeContext });
    // A key named __proto__ is a key like any other (a table parsed from JSON holds it as its own).
    expect(rendered).toMatchObject({ subject: "Allô", bodyHtml: "<p>A-fr P-fr</p>", bodyText: "Texte A-fr" });
  });

  it("uses the default's content and table when no variant of the chain exists", () => {
    const resolved = resolveTemplateVariant(TEMPLATE, "de-AT");
    expect(resolved).toMatchObject({ requestedLocale: "de-AT", usedLocale: "en", fallsBackForMissingKeys: false });
    expect(resolved.messages).toBe(resolved.fallbackMessages);
    const rendered = renderTemplate(resolved.source, {}, { locale: resolved.localeContext });
    expect(rendered).toMatchObject({ subject: "Hello", bodyHtml: "<p>A-en P-en</p>", bodyText: "Text A-en" });
  });
});
