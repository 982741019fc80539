// Pure: what a rendered template's content risks with mailbox providers and spam filters
// (docs/deliverability.md#content-checks). Run by POST /v1/templates/:id/check, the studio, and with
// CONTENT_CHECKS on every send. SpamAssassin's verdict is the server's (lib/flows/content/).
import { Parser } from "htmlparser2";

export type FindingSeverity = "error" | "warning" | "info";

export const CONTENT_RULES = [
  "spam_score",
  "gmail_clipping",
  "text_part",
  "image_alt",
  "insecure_link",
  "link_text_mismatch",
  "shortener",
  "unsubscribe_link",
  "subject_length",
  "empty_variables",
] as const;

export type ContentRule = (typeof CONTENT_RULES)[number];

export interface ContentFinding {
  rule: ContentRule;
  severity: FindingSeverity;
  message: string;
  /** The locale variant it was found in, when the template has several. */
  locale?: string;
}

export interface RenderedContent {
  subject: string;
  html: string;
  text: string | null;
}

export interface ContentContext {
  /** Variables the template reads that the sample data lacks or holds empty. */
  emptyVariables: string[];
  /** Mail of an unsubscribe group: it must carry the unsubscribe link. */
  groupMail: boolean;
  /** The value `{{ unsubscribeUrl }}` rendered to, to find it in the HTML. */
  unsubscribeUrl: string;
}

/** Gmail hides everything past 102 KB of HTML behind "View entire message" (the unsubscribe link too). */
export const GMAIL_CLIP_BYTES = 102 * 1024;
const CLIP_WARNING_BYTES = 90 * 1024;
export const SUBJECT_MAX_CHARS = 70;
const NEAR_EMPTY_TEXT_CHARS = 20;

/** Link shorteners: spam filters distrust links that hide their target. */
export const SHORTENER_HOSTS = new Set([
  "bit.ly",
  "tinyurl.com",
  "goo.gl",
  "t.co",
  "ow.ly",
  "is.gd",
  "buff.ly",
  "cutt.ly",
  "rebrand.ly",
  "shorturl.at",
  "rb.gy",
  "tiny.cc",
  "bl.ink",
  "t.ly",
  "s.id",
]);

interface Link {
  href: string;
  text: string;
}

/** The images without an alt attribute and the links with their visible text, from one pass of the HTML. */
function scan(html: string): { imagesWithoutAlt: number; links: Link[]; visibleText: string } {
  let imagesWithoutAlt = 0;
  const links: Link[] = [];
  const open: Link[] = [];
  let visibleText = "";
  let hidden = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "img" && !("alt" in attributes)) imagesWithoutAlt++;
        if (name === "a" && attributes.href) open.push({ href: attributes.href.trim(), text: "" });
        else if (name === "a") open.push({ href: "", text: "" });
        if (name === "style" || name === "script" || name === "head" || name === "title") hidden++;
      },
      ontext(text) {
        if (hidden > 0) return;
        visibleText += text;
        for (const link of open) link.text += text;
      },
      onclosetag(name) {
        if (name === "style" || name === "script" || name === "head" || name === "title")
          hidden = Math.max(0, hidden - 1);
        if (name !== "a") return;
        const link = open.pop();
        if (link?.href) links.push({ href: link.href, text: link.text.replace(/\s+/g, " ").trim() });
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return { imagesWithoutAlt, links, visibleText: visibleText.replace(/\s+/g, " ").trim() };
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return null;
  }
}

/** A domain the link's text shows (`www.bank.com`, `https://bank.com/login`), or null when it shows none. */
function shownHost(text: string): string | null {
  const match = /^(?:https?:\/\/)?((?:[a-z0-9-]+\.)+[a-z]{2,})(?:[/:?#]\S*)?$/i.exec(text.trim());
  return match ? match[1].toLowerCase().replace(/^www\./, "") : null;
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** Every finding of the rules that read the rendered content (all but spam_score). */
export function checkRenderedContent(content: RenderedContent, context: ContentContext): ContentFinding[] {
  const { imagesWithoutAlt, links, visibleText } = scan(content.html);
  return [
    ...clipping(content.html),
    ...textPart(content, visibleText),
    ...(imagesWithoutAlt > 0
      ? [
          finding(
            "image_alt",
            "warning",
            `${plural(imagesWithoutAlt, "image")} without alt text: what shows while images are blocked, and what screen readers read.`,
          ),
        ]
      : []),
    ...linkFindings(links),
    ...unsubscribe(content.html, context),
    ...subject(content.subject),
    ...(context.emptyVariables.length > 0
      ? [
          finding(
            "empty_variables",
            "warning",
            `Render empty with the sample data: ${context.emptyVariables.join(", ")}.`,
          ),
        ]
      : []),
  ];
}

const finding = (rule: ContentRule, severity: FindingSeverity, message: string): ContentFinding => ({
  rule,
  severity,
  message,
});

function clipping(html: string): ContentFinding[] {
  const bytes = new TextEncoder().encode(html).length;
  const size = `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes > GMAIL_CLIP_BYTES)
    return [
      finding(
        "gmail_clipping",
        "error",
        `The HTML is ${size}: Gmail clips past 102 KB and hides the rest, unsubscribe link included.`,
      ),
    ];
  if (bytes > CLIP_WARNING_BYTES)
    return [finding("gmail_clipping", "warning", `The HTML is ${size}, close to Gmail's 102 KB clipping.`)];
  return [];
}

function textPart(content: RenderedContent, visibleText: string): ContentFinding[] {
  const text = content.text?.trim() ?? "";
  if (!content.text)
    return [finding("text_part", "info", "No text version: one is derived from the HTML when the mail is sent.")];
  if (text.length < NEAR_EMPTY_TEXT_CHARS && visibleText.length > 200)
    return [
      finding(
        "text_part",
        "warning",
        `The text version is nearly empty (${text.length} characters) beside a full HTML version: spam filters compare the two.`,
      ),
    ];
  return [];
}

function linkFindings(links: Link[]): ContentFinding[] {
  const findings: ContentFinding[] = [];
  const web = links.filter((link) => /^https?:/i.test(link.href));
  const insecure = web.filter((link) => /^http:/i.test(link.href));
  if (insecure.length > 0)
    findings.push(
      finding(
        "insecure_link",
        "warning",
        `${plural(insecure.length, "link")} over plain http://, e.g. ${insecure[0].href}.`,
      ),
    );
  for (const link of web) {
    const target = hostOf(link.href);
    const shown = shownHost(link.text);
    if (target && shown && shown !== target && !target.endsWith(`.${shown}`))
      findings.push(
        finding(
          "link_text_mismatch",
          "error",
          `A link shows ${shown} but goes to ${target}: filters treat that as phishing.`,
        ),
      );
  }
  const shortened = [
    ...new Set(web.map((link) => hostOf(link.href)).filter((host) => host && SHORTENER_HOSTS.has(host))),
  ];
  if (shortened.length > 0)
    findings.push(
      finding(
        "shortener",
        "warning",
        `Links through a shortener (${shortened.join(", ")}): filters distrust links that hide their target.`,
      ),
    );
  return findings;
}

function unsubscribe(html: string, context: ContentContext): ContentFinding[] {
  const url = context.unsubscribeUrl;
  if (html.includes(url) || html.includes(url.replaceAll("&", "&amp;"))) return [];
  return context.groupMail
    ? [
        finding(
          "unsubscribe_link",
          "error",
          "Group mail without an unsubscribe link: add {{ unsubscribeUrl }} to the body.",
        ),
      ]
    : [
        finding(
          "unsubscribe_link",
          "info",
          "No unsubscribe link: fine for transactional mail; mail of an unsubscribe group needs {{ unsubscribeUrl }}.",
        ),
      ];
}

function subject(text: string): ContentFinding[] {
  const length = [...text.trim()].length;
  if (length === 0) return [finding("subject_length", "error", "The subject is empty.")];
  if (length > SUBJECT_MAX_CHARS)
    return [
      finding(
        "subject_length",
        "warning",
        `The subject is ${length} characters: most inboxes cut it after about ${SUBJECT_MAX_CHARS}.`,
      ),
    ];
  return [];
}

const RANK: Record<FindingSeverity, number> = { info: 0, warning: 1, error: 2 };

/** Errors first, then warnings, then notes; each rule's order kept. */
export function sortFindings(findings: ContentFinding[]): ContentFinding[] {
  return [...findings].sort((a, b) => RANK[b.severity] - RANK[a.severity]);
}
