import { describe, expect, it } from "vitest";
import { checkRenderedContent, sortFindings, type ContentContext, type RenderedContent } from "./content-checks.shared";
import { blankVariables } from "./variables.shared";

const UNSUBSCRIBE = "https://mail.acme.test/u/preview";
const context = (change: Partial<ContentContext> = {}): ContentContext => ({
  emptyVariables: [],
  groupMail: false,
  unsubscribeUrl: UNSUBSCRIBE,
  ...change,
});
const clean: RenderedContent = {
  subject: "Your receipt",
  html: `<p>Thanks for your order. <a href="https://acme.test/orders/1">See your order</a></p><img src="https://acme.test/logo.png" alt="Acme"><a href="${UNSUBSCRIBE}">Unsubscribe</a>`,
  text: "Thanks for your order. See it at https://acme.test/orders/1",
};
const rules = (content: Partial<RenderedContent>, change: Partial<ContentContext> = {}) =>
  checkRenderedContent({ ...clean, ...content }, context(change)).map((finding) => [finding.rule, finding.severity]);

describe("content checks of a rendered template", () => {
  it("finds nothing in clean content", () => {
    expect(checkRenderedContent(clean, context())).toEqual([]);
  });

  it("Gmail's clipping: a warning past 90 KB, an error past 102 KB", () => {
    const padding = (kb: number) => `<p>${"x".repeat(kb * 1024)}</p>`;
    expect(rules({ html: clean.html + padding(95) })).toEqual([["gmail_clipping", "warning"]]);
    const [clipped] = checkRenderedContent({ ...clean, html: clean.html + padding(103) }, context());
    expect(clipped).toMatchObject({ rule: "gmail_clipping", severity: "error" });
    expect(clipped.message).toMatch(/^The HTML is 103\.\d KB: Gmail clips past 102 KB/);
  });

  it("the text part: none is a note (derived at send), nearly empty beside a full HTML is a warning", () => {
    expect(rules({ text: null })).toEqual([["text_part", "info"]]);
    const long = `<p>${"Words of the order. ".repeat(20)}</p><a href="${UNSUBSCRIBE}">u</a>`;
    expect(rules({ html: long, text: "Hi" })).toEqual([["text_part", "warning"]]);
  });

  it('images without alt (alt="" is fine), http:// links, a link showing another domain, shorteners', () => {
    const html = `${clean.html}<img src="a.png"><img src="b.png" alt=""><img src="c.png">
      <a href="http://acme.test/old">old</a>
      <a href="https://evil.example/login">www.bank.example</a>
      <a href="https://mail.acme.test/x">acme.test</a>
      <a href="https://bit.ly/abc">deal</a>`;
    const found = checkRenderedContent({ ...clean, html }, context());
    expect(found.map((finding) => [finding.rule, finding.severity])).toEqual([
      ["image_alt", "warning"],
      ["insecure_link", "warning"],
      ["link_text_mismatch", "error"],
      ["shortener", "warning"],
    ]);
    expect(found[0].message).toMatch(/^2 images without alt text/);
    expect(found[2].message).toBe(
      "A link shows bank.example but goes to evil.example: filters treat that as phishing.",
    );
  });

  it("the unsubscribe link: a note for transactional mail, an error for group mail, found when entity-escaped", () => {
    const html = "<p>Hello</p>";
    expect(rules({ html })).toEqual([["unsubscribe_link", "info"]]);
    expect(rules({ html }, { groupMail: true })).toEqual([["unsubscribe_link", "error"]]);
    const url = "https://mail.acme.test/u/t?a=1&b=2";
    expect(rules({ html: `<a href="https://mail.acme.test/u/t?a=1&amp;b=2">u</a>` }, { unsubscribeUrl: url })).toEqual(
      [],
    );
  });

  it("the subject: empty is an error, past 70 characters a warning; empty variables are named", () => {
    expect(rules({ subject: " " })).toEqual([["subject_length", "error"]]);
    expect(rules({ subject: "x".repeat(71) })).toEqual([["subject_length", "warning"]]);
    expect(rules({ subject: "é".repeat(70) })).toEqual([]);
    const [empty] = checkRenderedContent(clean, context({ emptyVariables: ["user.name", "order"] }));
    expect(empty).toEqual({
      rule: "empty_variables",
      severity: "warning",
      message: "Render empty with the sample data: user.name, order.",
    });
  });

  it("blank variables: missing, null, or a blank string; provided ones (unsubscribeUrl) never", () => {
    const sources = ["Hi {{ user.name }}", "{{ order.id }} {{ note }} {{ count }} {{ unsubscribeUrl }}"];
    expect(blankVariables(sources, { user: { name: " " }, order: { id: 7 }, count: 0, note: null })).toEqual([
      "user.name",
      "note",
    ]);
    expect(blankVariables(sources, {}).sort()).toEqual(["count", "note", "order.id", "user.name"]);
  });

  it("sorts errors first, then warnings, then notes", () => {
    const sorted = sortFindings([
      { rule: "text_part", severity: "info", message: "a" },
      { rule: "image_alt", severity: "warning", message: "b" },
      { rule: "subject_length", severity: "error", message: "c" },
    ]);
    expect(sorted.map((finding) => finding.severity)).toEqual(["error", "warning", "info"]);
  });
});
