import { describe, expect, it } from "vitest";
import { rewriteHtmlForTracking, type TrackingRewrite } from "./rewrite-html";

const calls: Array<[number, string]> = [];
const options: TrackingRewrite = {
  appUrl: "https://mail.example.net",
  clickUrl: (index, url) => {
    calls.push([index, url]);
    return `https://mail.example.net/t/c/T${index}`;
  },
  pixelUrl: "https://mail.example.net/t/o/P",
  maxUrlLength: 100,
};
const PIXEL =
  '<img src="https://mail.example.net/t/o/P" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0;overflow:hidden">';

function rewrite(html: string) {
  calls.length = 0;
  return rewriteHtmlForTracking(html, options);
}

describe("rewriteHtmlForTracking", () => {
  it("wraps http(s) links of <a> elements in document order and keeps every other byte", () => {
    const html =
      '<html><body>\n<p>Hi <A class="btn" HREF="https://shop.example/a?x=1&amp;y=2" target=_blank>Shop</A>,\n' +
      "<a title='a > b' href='http://old.example/'>old</a> <a href=https://bare.example/p>bare</a></p>\n</body></html>";
    expect(rewrite(html)).toBe(
      '<html><body>\n<p>Hi <A class="btn" HREF="https://mail.example.net/t/c/T0" target=_blank>Shop</A>,\n' +
        "<a title='a > b' href='https://mail.example.net/t/c/T1'>old</a> <a href=https://mail.example.net/t/c/T2>bare</a></p>\n" +
        `${PIXEL}</body></html>`,
    );
    // The signed link is what a browser would have followed: entities decoded.
    expect(calls).toEqual([
      [0, "https://shop.example/a?x=1&y=2"],
      [1, "http://old.example/"],
      [2, "https://bare.example/p"],
    ]);
  });

  it("leaves mailto:, tel:, anchors, relative and non-http links, opt-outs, unsubscribe and tracking links alone", () => {
    const untouched = [
      '<a href="mailto:help@example.com">mail</a>',
      '<a href="tel:+4930123">call</a>',
      '<a href="#top">top</a>',
      '<a href="/relative">rel</a>',
      '<a href="javascript:alert(1)">js</a>',
      '<a name="anchor">no href</a>',
      '<a href="https://shop.example/private" data-no-track>opt-out</a>',
      '<a data-notrack="" href="https://shop.example/private">opt-out</a>',
      '<a clicktracking="off" href="https://shop.example/private">opt-out</a>',
      '<a href="https://mail.example.net/u/abc.def">Unsubscribe</a>',
      '<a href="https://mail.example.net/api/unsubscribe/abc.def">One-click</a>',
      '<a href="https://mail.example.net/t/c/already">tracked</a>',
      `<a href="https://shop.example/${"x".repeat(120)}">too long</a>`,
      '<a data-href="https://shop.example/">not an href</a>',
      '<!-- <a href="https://commented.example/">old</a> -->',
      '<abbr title="https://x.example/">abbr</abbr>',
    ].join("\n");
    expect(rewrite(untouched)).toBe(untouched + PIXEL);
    expect(calls).toEqual([]);
  });

  it("still wraps the service's own host outside its reserved paths, and links in Outlook conditional comments", () => {
    const html =
      '<a href="https://mail.example.net/docs">docs</a><!--[if mso]><a href="https://shop.example/">btn</a><![endif]-->';
    expect(rewrite(html)).toBe(
      '<a href="https://mail.example.net/t/c/T0">docs</a><!--[if mso]><a href="https://mail.example.net/t/c/T1">btn</a><![endif]-->' +
        PIXEL,
    );
  });

  it("puts the pixel before the last </body>, or at the end; a text-only message gets nothing", () => {
    expect(rewrite("<body><p>a</p></BODY >\n")).toBe(`<body><p>a</p>${PIXEL}</BODY >\n`);
    expect(rewrite("<p>no body tag</p>")).toBe(`<p>no body tag</p>${PIXEL}`);
    expect(rewrite('<body>"</body>" in text</body>')).toBe(`<body>"</body>" in text${PIXEL}</body>`);
    expect(rewrite("")).toBe("");
    expect(rewrite("  \n")).toBe("  \n");
  });

  it("survives malformed markup without losing content", () => {
    const html =
      '<a href="https://x.example/ unclosed <p>text</p> <a href=>empty</a> <a href="https://ok.example/">ok</a>';
    const out = rewrite(html);
    expect(out.endsWith(PIXEL)).toBe(true);
    expect(out.replace(PIXEL, "").replace(/https:\/\/mail\.example\.net\/t\/c\/T\d/g, "URL")).toBe(
      html.replace(/https:\/\/ok\.example\//, "URL"),
    );
  });
});
