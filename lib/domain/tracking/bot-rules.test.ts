import { describe, expect, it } from "vitest";
import { classifyClick, classifyOpen, CLICK_AFTER_SEND_SECONDS } from "./bot-rules";

const IPHONE_MAIL =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const OUTLOOK = "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17531; Pro)";
const GMAIL_PROXY = "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)";

const person = { ip: "203.0.113.7", userAgent: CHROME };
const sentAt = new Date("2026-03-01T10:00:00.000Z");
const later = new Date(sentAt.getTime() + 60_000);
const quiet = { linkIndex: 0, now: later, sentAt, recentClicks: [] };

describe("bot rules", () => {
  it("opens by people's mail clients and by image proxies that fetch on display count", () => {
    for (const userAgent of [IPHONE_MAIL, CHROME, OUTLOOK, GMAIL_PROXY]) {
      expect(classifyOpen({ ip: "203.0.113.7", userAgent })).toEqual({ bot: false, reason: null });
    }
  });

  it("flags Apple Mail Privacy Protection, scanners, preview bots, automation and missing user agents", () => {
    const cases: Array<[string, string, string]> = [
      ["Mozilla/5.0", "198.51.100.1", "Apple Mail Privacy Protection prefetch"],
      [IPHONE_MAIL, "17.58.101.5", "Apple Mail Privacy Protection prefetch"],
      ["Mozilla/5.0 (compatible; Barracuda Sentinel)", "198.51.100.1", "email security scanner"],
      ["Mimecast-URL-Protect/1.0", "198.51.100.1", "email security scanner"],
      ["Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", "198.51.100.1", "link preview bot"],
      ["facebookexternalhit/1.1", "198.51.100.1", "link preview bot"],
      [
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36",
        "198.51.100.1",
        "automated client",
      ],
      ["python-requests/2.31.0", "198.51.100.1", "automated client"],
      ["curl/8.5.0", "198.51.100.1", "automated client"],
      ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "198.51.100.1", "crawler"],
      ["", "198.51.100.1", "no user agent"],
    ];
    for (const [userAgent, ip, reason] of cases) {
      expect(classifyOpen({ ip, userAgent }), userAgent).toEqual({ bot: true, reason });
      expect(classifyClick({ ip, userAgent }, { ...quiet, sentAt: null }).bot, userAgent).toBe(
        userAgent !== IPHONE_MAIL,
      );
    }
  });

  it("a click within seconds of sending is a scanner; a minute later it is a person", () => {
    const soon = new Date(sentAt.getTime() + 3_000);
    expect(classifyClick(person, { ...quiet, now: soon })).toEqual({
      bot: true,
      reason: "clicked 3.0 s after sending",
    });
    const edge = new Date(sentAt.getTime() + CLICK_AFTER_SEND_SECONDS * 1000);
    expect(classifyClick(person, { ...quiet, now: edge }).bot).toBe(false);
    expect(classifyClick(person, quiet)).toEqual({ bot: false, reason: null });
  });

  it("different links clicked by one client in a burst are a scanner; the same link again, or another client, is not", () => {
    const burst = (recentClicks: Array<{ linkIndex: number; ip: string; userAgent: string }>) =>
      classifyClick(person, { ...quiet, linkIndex: 1, recentClicks });
    expect(burst([{ linkIndex: 0, ...person }])).toEqual({
      bot: true,
      reason: "several links clicked by one client within 2 s",
    });
    expect(burst([{ linkIndex: 1, ...person }]).bot).toBe(false);
    expect(burst([{ linkIndex: 0, ip: "198.51.100.9", userAgent: CHROME }]).bot).toBe(false);
    expect(burst([{ linkIndex: 0, ip: person.ip, userAgent: IPHONE_MAIL }]).bot).toBe(false);
  });
});
