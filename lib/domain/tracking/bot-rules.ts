// Machine traffic (docs/delivery.md) is recorded with bot=true and moves no timestamp; each rule is one line, its reason shown.
export interface Client {
  ip: string;
  userAgent: string;
}

export interface BotVerdict {
  bot: boolean;
  reason: string | null;
}

interface UserAgentRule {
  pattern: RegExp;
  reason: string;
}

/** User agents that are never a person reading mail. Checked in order; the first match names the reason. */
export const USER_AGENT_RULES: readonly UserAgentRule[] = [
  // Apple Mail Privacy Protection's proxy prefetches images with this bare user agent; no real client sends it.
  { pattern: /^Mozilla\/5\.0$/, reason: "Apple Mail Privacy Protection prefetch" },
  {
    pattern:
      /barracuda|mimecast|proofpoint|ironport|messagelabs|symantec|forcepoint|sophos|trend ?micro|fireeye|zscaler|fortiguard|spamtitan|safelinks|safe links/i,
    reason: "email security scanner",
  },
  {
    pattern:
      /slackbot|twitterbot|facebookexternalhit|linkedinbot|discordbot|telegrambot|whatsapp|skypeuripreview|iframely|embedly|redditbot|applebot|bingpreview|google-pagerenderer/i,
    reason: "link preview bot",
  },
  {
    pattern:
      /headlesschrome|phantomjs|puppeteer|playwright|selenium|webdriver|python-requests|python-urllib|aiohttp|curl\/|wget\/|go-http-client|okhttp|axios\/|node-fetch|undici|libwww-perl|httpie|java\//i,
    reason: "automated client",
  },
  // Crawlers name themselves "<name>bot/<version>" (Googlebot/2.1, bingbot/2.0) or say what they are.
  { pattern: /\b[\w-]*(bot|crawler|spider|scanner)\/\d|\b(crawler|spider)\b/i, reason: "crawler" },
];

/** Apple's own network (17.0.0.0/8): image fetches from it are Privacy Protection's proxy, not a reader. */
const APPLE_PROXY_IPV4 = /^17\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** A click this soon after sending is a gateway scanning the message on arrival, not its reader. */
export const CLICK_AFTER_SEND_SECONDS = 10;
/** Different links of one message clicked by one client this close together: a scanner walking the links. */
export const LINK_BURST_SECONDS = 2;

export function classifyOpen(client: Client): BotVerdict {
  return (
    userAgentVerdict(client) ??
    (APPLE_PROXY_IPV4.test(client.ip) ? machine("Apple Mail Privacy Protection prefetch") : person())
  );
}

export interface ClickContext {
  linkIndex: number;
  now: Date;
  /** When the message was sent; null when it never was (then the timing rule does not apply). */
  sentAt: Date | null;
  /** Earlier clicks on the same message within the last LINK_BURST_SECONDS. */
  recentClicks: ReadonlyArray<{ linkIndex: number; ip: string; userAgent: string }>;
}

export function classifyClick(client: Client, context: ClickContext): BotVerdict {
  const byAgent = userAgentVerdict(client);
  if (byAgent) return byAgent;
  if (context.sentAt) {
    const seconds = (context.now.getTime() - context.sentAt.getTime()) / 1000;
    if (seconds < CLICK_AFTER_SEND_SECONDS)
      return machine(`clicked ${Math.max(0, seconds).toFixed(1)} s after sending`);
  }
  const walked = context.recentClicks.some(
    (click) => click.linkIndex !== context.linkIndex && click.ip === client.ip && click.userAgent === client.userAgent,
  );
  if (walked) return machine(`several links clicked by one client within ${LINK_BURST_SECONDS} s`);
  return person();
}

function userAgentVerdict(client: Client): BotVerdict | null {
  if (!client.userAgent.trim()) return machine("no user agent");
  const rule = USER_AGENT_RULES.find(({ pattern }) => pattern.test(client.userAgent));
  return rule ? machine(rule.reason) : null;
}

function machine(reason: string): BotVerdict {
  return { bot: true, reason };
}

function person(): BotVerdict {
  return { bot: false, reason: null };
}
