// Pure: everything but the rewritten hrefs and the appended pixel is kept byte for byte.
export interface TrackingRewrite {
  /** Links of the service itself (unsubscribe pages, tracking) are never wrapped: origin of APP_URL. */
  appUrl: string;
  /** The tracked URL for the `index`-th tracked link (0-based, document order) pointing at `url`. */
  clickUrl(index: number, url: string): string;
  pixelUrl: string;
  maxUrlLength: number;
}

// Plain comments are skipped (a commented-out link is not a link); Outlook's conditional comments
// (`<!--[if mso]>`) hold real markup and are scanned. An <a> start tag allows `>` inside quoted values.
const TOKENS = /<!--(?!\[if)[\s\S]*?-->|<a(?=[\s>])(?:[^>"']|"[^"]*"|'[^']*')*>/gi;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
/** Opt-outs on a link: `data-no-track`, `data-notrack`, or SendGrid's `clicktracking="off"`. */
const OPT_OUT = new Set(["data-no-track", "data-notrack"]);
/** Paths of the service's own links under APP_URL: unsubscribe page, one-click endpoint, tracking. */
const OWN_PATHS = ["/u/", "/api/unsubscribe/", "/t/"];

export function rewriteHtmlForTracking(html: string, options: TrackingRewrite): string {
  if (!html.trim()) return html;
  let index = 0;
  const rewritten = html.replace(TOKENS, (tag) => {
    if (tag.startsWith("<!--")) return tag;
    return rewriteAnchor(tag, options, () => index++);
  });
  return appendPixel(rewritten, options.pixelUrl);
}

interface Href {
  value: string;
  start: number;
  end: number;
}

function rewriteAnchor(tag: string, options: TrackingRewrite, nextIndex: () => number): string {
  let href: Href | null = null;
  ATTRIBUTE.lastIndex = 2;
  for (let match = ATTRIBUTE.exec(tag); match; match = ATTRIBUTE.exec(tag)) {
    const name = match[1].toLowerCase();
    const value = match[2] ?? match[3] ?? match[4];
    if (OPT_OUT.has(name)) return tag;
    if (name === "clicktracking" && value?.trim().toLowerCase() === "off") return tag;
    // Browsers use the first of duplicated attributes.
    if (name === "href" && !href && value !== undefined) {
      const end = match.index + match[0].length - (match[4] === undefined ? 1 : 0);
      href = { value, start: end - value.length, end };
    }
  }
  if (!href) return tag;
  const url = linkTarget(href.value);
  if (!url || url.length > options.maxUrlLength || isOwnLink(url, options.appUrl)) return tag;
  return tag.slice(0, href.start) + escapeAttribute(options.clickUrl(nextIndex(), url)) + tag.slice(href.end);
}

/** The URL a browser would follow, when it is an absolute http(s) link; null otherwise (mailto:, tel:, #, relative…). */
function linkTarget(attributeValue: string): string | null {
  // As browsers do: entities decoded, surrounding spaces trimmed, tabs and newlines removed.
  const url = decodeEntities(attributeValue)
    .trim()
    .replace(/[\t\n\r]/g, "");
  if (!/^https?:\/\/[^/?#\s]/i.test(url)) return null;
  try {
    new URL(url);
    return url;
  } catch {
    return null;
  }
}

function isOwnLink(url: string, appUrl: string): boolean {
  try {
    const link = new URL(url);
    const app = new URL(appUrl);
    if (link.origin !== app.origin) return false;
    const base = app.pathname.replace(/\/$/, "");
    return OWN_PATHS.some((path) => link.pathname.startsWith(base + path));
  } catch {
    return false;
  }
}

const NAMED: Record<string, string> = { amp: "&", quot: '"', apos: "'", lt: "<", gt: ">" };

function decodeEntities(value: string): string {
  return value.replace(/&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[a-zA-Z]+);/g, (entity, body: string) => {
    if (body[0] !== "#") return NAMED[body.toLowerCase()] ?? entity;
    const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}

function appendPixel(html: string, pixelUrl: string): string {
  const pixel =
    `<img src="${escapeAttribute(pixelUrl)}" width="1" height="1" alt="" ` +
    `style="display:block;width:1px;height:1px;border:0;margin:0;padding:0;overflow:hidden">`;
  const close = html.search(/<\/body\s*>(?![\s\S]*<\/body\s*>)/i);
  return close === -1 ? `${html}${pixel}` : `${html.slice(0, close)}${pixel}${html.slice(close)}`;
}

/** Signed URLs are APP_URL plus base64url, but APP_URL is configuration: never let it break out of the attribute. */
function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\s/g, "%20");
}
