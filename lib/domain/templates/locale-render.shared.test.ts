import { describe, expect, it } from "vitest";
import { renderTemplate, type LocaleContext } from "./render.shared";
import { missingVariables } from "./variables.shared";

// Intl separates with no-break spaces (U+00A0, U+202F) and marks Arabic with direction marks: compared as plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ").replace(/[\u061c\u200e\u200f]/g, "");

function render(bodyHtml: string, variables: Record<string, unknown>, locale?: LocaleContext, strict = false) {
  return plain(renderTemplate({ subject: "s", bodyHtml, bodyText: null }, variables, { locale, strict }).bodyHtml);
}

const at = (locale: string): LocaleContext => ({ locale, messages: {}, fallbackMessages: {} });

const FR: LocaleContext = {
  locale: "fr",
  messages: {
    "cart.title": "Votre panier",
    "cart.items": "{count, plural, =0 {aucun article} one {# article} other {# articles}}",
    greeting: "Bonjour {name} <3",
    broken: "{count, plural, one {x}}",
  },
  fallbackMessages: { "cart.title": "Your cart", "footer.legal": "{count, plural, one {# shop} other {# shops}}" },
  fallbackLocale: "en",
};

describe("the t tag and filter", () => {
  it("read the used locale's table, with ICU plurals and arguments from the tag, the filter or the data", () => {
    expect(render('{% t "cart.title" %}', {}, FR)).toBe("Votre panier");
    expect(render('{% t "cart.items", count: cart.count %}', { cart: { count: 0 } }, FR)).toBe("aucun article");
    expect(render('{% t "cart.items" count: 1 %}', {}, FR)).toBe("1 article");
    expect(render('{{ "cart.items" | t: count: n }}', { n: 1500 }, FR)).toBe("1 500 articles");
    // Arguments the tag does not give are read from the template's data; HTML escaped as any output.
    expect(render('{% t "greeting" %} {{ "greeting" | t }}', { name: "<Zoé>" }, FR)).toBe(
      "Bonjour &lt;Zoé&gt; &lt;3 Bonjour &lt;Zoé&gt; &lt;3",
    );
    const text = renderTemplate(
      { subject: '{% t "greeting", name: "Zoé" %}', bodyHtml: "", bodyText: null },
      {},
      { locale: FR },
    );
    expect(text.subject).toBe("Bonjour Zoé <3");
  });

  it("fall back to the default locale's text (with its plural rules), then to the key, or fail in strict mode", () => {
    expect(render('{% t "footer.legal", count: 1 %} | {% t "footer.legal", count: 0 %}', {}, FR)).toBe(
      "1 shop | 0 shops",
    );
    expect(render('{% t "nowhere.key" %} {{ "nowhere.key" | t }}', {}, FR)).toBe("nowhere.key nowhere.key");
    expect(() => render('{% t "nowhere.key" %}', {}, FR, true)).toThrow(
      expect.objectContaining({
        code: "TEMPLATE_RENDER_ERROR",
        message: expect.stringMatching(/no translation for "nowhere.key" in fr/),
      }),
    );
    // A malformed message is shown as written when lenient, and named when strict.
    expect(render('{% t "broken" %}', {}, FR)).toBe("{count, plural, one {x}}");
    expect(() => render('{% t "broken" %}', {}, FR, true)).toThrow(/"broken" in fr: .*"other" case/);
    // No locale context: keys render as themselves.
    expect(render('{% t "cart.title" %}', {})).toBe("cart.title");
    expect(() => render("{% t %}", {})).toThrow(/a translation key is needed/);
  });

  it("count as variables for the sample-data check, and the locale's variables are provided", () => {
    expect(
      missingVariables(['{% t "k", count: cart.count %}{{ "k" | t: n: total }} {{ dir }} {{ locale }}'], {}),
    ).toEqual(["cart.count", "total"]);
  });
});

describe("formats follow the used locale", () => {
  const FIVE = ["en-US", "en-IE", "fr", "de", "ja"];
  const each = (source: string, variables: Record<string, unknown>) =>
    Object.fromEntries(FIVE.map((locale) => [locale, render(source, variables, at(locale))]));

  it("money", () => {
    expect(each('{{ total | money: "EUR" }}', { total: 12.5 })).toEqual({
      "en-US": "€12.50",
      "en-IE": "€12.50",
      fr: "12,50 €",
      de: "12,50 €",
      ja: "€12.50",
    });
    expect(each('{{ total | money: "usd" }}', { total: 1234.5 })).toMatchObject({
      fr: "1 234,50 $US",
      de: "1.234,50 $",
    });
    expect(render('{{ total | money: "JPY" }}', { total: 1234 }, at("ja"))).toBe("￥1,234");
    expect(render('[{{ missing | money: "EUR" }}]', {}, at("fr"))).toBe("[]");
    expect(() => render('{{ 1 | money: "EURO" }}', {}, at("fr"))).toThrow(/money: unknown currency code "EURO"/);
  });

  it("number", () => {
    expect(each("{{ n | number }} {{ n | number: 2 }}", { n: 1234567.891 })).toEqual({
      "en-US": "1,234,567.891 1,234,567.89",
      "en-IE": "1,234,567.891 1,234,567.89",
      fr: "1 234 567,891 1 234 567,89",
      de: "1.234.567,891 1.234.567,89",
      ja: "1,234,567.891 1,234,567.89",
    });
  });

  it("date styles, while strftime formats keep working", () => {
    expect(each('{{ d | date: "long" }}', { d: "2026-03-05" })).toEqual({
      "en-US": "March 5, 2026",
      "en-IE": "5 March 2026",
      fr: "5 mars 2026",
      de: "5. März 2026",
      ja: "2026年3月5日",
    });
    expect(each('{{ d | date: "short" }}', { d: "2026-03-05" })).toMatchObject({ "en-US": "3/5/26", de: "05.03.26" });
    expect(render('{{ d | date: "full" }}', { d: "2026-03-05" }, at("fr"))).toBe("jeudi 5 mars 2026");
    expect(render('{{ d | date: "medium", "America/New_York" }}', { d: "2026-03-05T02:00:00Z" }, at("en-US"))).toBe(
      "Mar 4, 2026",
    );
    // Seconds since the epoch, as Liquid's own filter reads them.
    expect(render('{{ d | date: "long" }}', { d: 1772668800 }, at("de"))).toBe("5. März 2026");
    expect(
      render(
        '{{ d | date: "%Y-%m" }} {{ "2026-03-05T12:00:00Z" | date: "%Y" }}',
        { d: "2026-03-05T12:00:00Z" },
        at("fr"),
      ),
    ).toBe("2026-03 2026");
    expect(render('{{ d | date: "long" }}', { d: "not a date" }, at("fr"))).toBe("not a date");
    expect(() => render('{{ d | date: "long", "Mars/Olympus" }}', { d: "2026-03-05" }, at("fr"))).toThrow(
      /unknown time zone/,
    );
  });

  it("the currency filter keeps its behaviour whatever the locale", () => {
    expect(render('{{ 12.5 | currency }} {{ 12.5 | currency: "EUR", "de-DE" }}', {}, at("fr"))).toBe("$12.50 12,50 €");
  });
});

describe("text direction", () => {
  it("dir and text_direction are rtl for Arabic and Hebrew, ltr otherwise and without a locale", () => {
    const source = '<html dir="{{ dir }}" lang="{{ locale }}">{{ text_direction }}';
    expect(render(source, {}, at("ar"))).toBe('<html dir="rtl" lang="ar">rtl');
    expect(render(source, {}, at("he-IL"))).toBe('<html dir="rtl" lang="he-IL">rtl');
    expect(render(source, {}, at("fr-CA"))).toBe('<html dir="ltr" lang="fr-CA">ltr');
    expect(render(source, {}, undefined, true)).toBe('<html dir="ltr" lang="en">ltr');
    // The template's own data wins over the provided names.
    expect(render("{{ locale }}", { locale: "mine" }, at("ar"))).toBe("mine");
  });
});
