import { describe, expect, it } from "vitest";
import { blocksDocumentProblem, blocksToLiquidHtml, emptyBlocksDocument } from "./blocks.shared";
import { renderTemplate } from "./render.shared";

describe("blocks documents", () => {
  it("compile to Liquid HTML that the one renderer fills, Liquid in text and attributes intact", () => {
    const document = emptyBlocksDocument();
    document.text.data.props = { text: 'Total: {{ total | currency: "EUR", "de-DE" }} & more' };
    document.button.data.props = {
      text: "Track {{ order.id }}",
      url: "https://shop.test/o/{{ order.id }}?q={{ 'a b' | url_encode }}",
    };
    const html = blocksToLiquidHtml(document);
    expect(html).toContain('{{ total | currency: "EUR", "de-DE" }} &amp; more');
    const rendered = renderTemplate(
      { subject: "s", bodyHtml: html, bodyText: null },
      { name: "Ada", total: 12.5, order: { id: "A<1>" } },
    );
    expect(rendered.bodyHtml).toContain("Hello Ada");
    expect(rendered.bodyHtml).toContain("Total: 12,50\u00a0€ &amp; more");
    expect(rendered.bodyHtml).toContain('href="https://shop.test/o/A&lt;1&gt;?q=a+b"');
    expect(rendered.bodyHtml).toContain("Track A&lt;1&gt;");
  });

  it("put the render's direction and language on the html element", () => {
    const html = blocksToLiquidHtml(emptyBlocksDocument());
    expect(html).toMatch(/^<!DOCTYPE html><html dir="\{\{ dir \}\}" lang="\{\{ locale \}\}">/);
    const locale = { locale: "ar", messages: {}, fallbackMessages: {} };
    const rendered = renderTemplate({ subject: "s", bodyHtml: html, bodyText: null }, { name: "Ada" }, { locale });
    expect(rendered.bodyHtml).toContain('<html dir="rtl" lang="ar">');
    const plain = renderTemplate(
      { subject: "s", bodyHtml: html, bodyText: null },
      { name: "Ada", url: "https://x.test" },
      { strict: true },
    );
    expect(plain.bodyHtml).toContain('<html dir="ltr" lang="en">');
  });

  it("name what is wrong with a malformed document", () => {
    expect(blocksDocumentProblem(emptyBlocksDocument())).toBeNull();
    expect(blocksDocumentProblem({ root: { type: "Nope", data: {} } })).not.toBeNull();
    expect(blocksDocumentProblem({ other: emptyBlocksDocument().root })).toMatch(/root/);
  });
});
