import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages, workspaces } from "@/db/schema";
import { createUnsubscribeGroup } from "@/lib/domain/contacts/create-unsubscribe-group";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { waitFor } from "@/lib/testing/wait-for";
import { isTrackingEnabled } from "@/lib/domain/tracking/apply-tracking";
import { signClickToken, signOpenToken } from "@/lib/domain/tracking/token";
import { deliver, messageState } from "@/lib/domain/unsubscribe/testing";
import { signUnsubscribeToken } from "@/lib/domain/unsubscribe/token";
import { createWorkspace } from "@/lib/domain/workspaces/create-workspace";
import { POST as sendRoute } from "../api/v1/email_messages/handlers";
import { GET as clickGet, HEAD as clickHead } from "./c/[token]/route";
import { GET as openGet, HEAD as openHead } from "./o/[token]/route";

const APP = "http://localhost:3000";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const READER = { "user-agent": CHROME, "x-forwarded-for": "203.0.113.7, 10.0.0.1" };
const BODY_HTML =
  '<html><body><p>Your order: <a href="https://shop.example/orders/42?src=mail&amp;x=1">view it</a>.</p>' +
  '<p><a href="https://shop.example/help">Help</a> · <a href="mailto:help@example.com">Mail us</a></p></body></html>';

/** A live group message sent through the real API route, then delivered by the real job to the local inbox. */
async function sentMessage(options: { tracking?: boolean } = {}) {
  const ws = await createTestWorkspace({ tracking: options.tracking ?? true });
  await createUnsubscribeGroup({ workspaceId: ws.workspace.id, key: "orders", name: "Order news" });
  const body = {
    from: "Acme <hello@example.com>",
    to: "ada@example.org",
    subject: "Your order",
    bodyHtml: BODY_HTML,
    groupKey: "orders",
  };
  const res = await callRoute(sendRoute, "/api/v1/email_messages", { authorization: ws.authorization, body });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  const id = res.json.data.id as string;
  await deliver(ws.workspace.id, id);
  const state = await messageState(id);
  expect(state.message.status).toBe("SUCCEEDED");
  const html = String(state.parsed!.html);
  const clicks = [...html.matchAll(/href="http:\/\/localhost:3000\/t\/c\/([^"]+)"/g)].map((match) => match[1]);
  const pixel = html.match(/src="http:\/\/localhost:3000\/t\/o\/([^"]+)"/)?.[1] ?? null;
  return { id, ws, html, clicks, pixel, stored: state.message.bodyHtml };
}

/** Moves the send time back, so clicks are not "within seconds of sending" (the immediate-click bot rule). */
async function sentAMinuteAgo(id: string) {
  await (
    await getDb()
  )
    .update(emailMessages)
    .set({ sentAt: new Date(Date.now() - 60_000) })
    .where(eq(emailMessages.id, id));
}

const click = (token: string, headers: Record<string, string> = READER, query = "") =>
  callRoute(clickGet, `/t/c/${token}${query}`, { params: { token }, headers });
const open = (token: string, headers: Record<string, string> = READER) =>
  callRoute(openGet, `/t/o/${token}`, { params: { token }, headers });
const engagement = async (id: string) =>
  (await messageState(id)).events.filter((event) => event.code.includes("OPEN") || event.code.includes("CLICKED"));

describe("delivery with tracking on (the default)", () => {
  it("wraps the http(s) links and appends the pixel in the MIME; the stored bodyHtml, mailto: and unsubscribe links stay", async () => {
    const { id, html, clicks, pixel, stored } = await sentMessage();
    const unsubscribe = `${APP}/u/${signUnsubscribeToken(id, "ada@example.org")}`;
    expect(stored).toContain('href="https://shop.example/orders/42?src=mail&amp;x=1"');
    expect(stored).not.toContain("/t/");
    expect(clicks).toEqual([
      signClickToken(id, 0, "https://shop.example/orders/42?src=mail&x=1"),
      signClickToken(id, 1, "https://shop.example/help"),
    ]);
    expect(pixel).toBe(signOpenToken(id));
    expect(html).not.toContain("https://shop.example/");
    expect(html).toContain('href="mailto:help@example.com"');
    expect(html).toContain(`href="${unsubscribe}"`);
    expect(html.indexOf("/t/o/")).toBeLessThan(html.indexOf("</body>"));
  });

  it("a click redirects (302) to exactly the signed link, whatever the query says, and records link, IP and user agent", async () => {
    const { id, clicks } = await sentMessage();
    await sentAMinuteAgo(id);
    const res = await click(clicks[0], READER, "?url=https://evil.example/&redirect=https://evil.example/");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://shop.example/orders/42?src=mail&x=1");
    expect(res.headers.get("cache-control")).toBe("no-store");

    const [event] = await engagement(id);
    expect(event.code).toBe("EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT");
    expect(event.bot).toBe(false);
    expect(event.message).toBe(
      `Clicked https://shop.example/orders/42?src=mail&x=1 at ${event.createdAt.toISOString()} from 203.0.113.7 with ${CHROME}.`,
    );
    expect(event.details).toMatchObject({
      link: "https://shop.example/orders/42?src=mail&x=1",
      linkIndex: 0,
      ipAddress: "203.0.113.7",
      userAgent: CHROME,
    });
    const { message } = await messageState(id);
    expect(message.firstClickedAt).toEqual(event.createdAt);
    expect(message.lastClickedAt).toEqual(event.createdAt);

    // The same link again, once the clock has moved past the first click, moves only lastClickedAt.
    await waitFor(() => Date.now() > event.createdAt.getTime() + 1, { what: "the clock to pass the first click" });
    expect((await click(clicks[0])).status).toBe(302);
    const after = (await messageState(id)).message;
    expect(after.firstClickedAt).toEqual(event.createdAt);
    expect(after.lastClickedAt!.getTime()).toBeGreaterThan(event.createdAt.getTime());
  });

  it("the pixel answers a transparent GIF that is never cached and records the open with IP and user agent", async () => {
    const { id, pixel } = await sentMessage();
    const res = await open(pixel!, { "user-agent": CHROME, "x-real-ip": "198.51.100.23" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/gif");
    expect(res.headers.get("cache-control")).toContain("no-store");
    const [event] = await engagement(id);
    expect(event.code).toBe("EMAIL_MESSAGE_OPEN_PROVIDER_EVENT");
    expect(event.bot).toBe(false);
    expect(event.message).toBe(`Opened at ${event.createdAt.toISOString()} from 198.51.100.23 with ${CHROME}.`);
    const { message } = await messageState(id);
    expect(message.firstOpenedAt).toEqual(event.createdAt);
    expect(message.lastOpenedAt).toEqual(event.createdAt);
  });

  it("bot traffic is recorded with bot=true and moves no timestamp: Apple's prefetch, a scanner's user agent, an immediate click, a link burst", async () => {
    const { id, clicks, pixel } = await sentMessage();
    // Right after delivery: a gateway scanning the message on arrival.
    expect((await click(clicks[1])).status).toBe(302);
    expect((await open(pixel!, { "user-agent": "Mozilla/5.0", "x-forwarded-for": "17.58.1.2" })).status).toBe(200);
    await sentAMinuteAgo(id);
    expect(
      (await click(clicks[0], { "user-agent": "Mimecast-URL-Protect/1.0", "x-forwarded-for": "198.51.100.5" })).status,
    ).toBe(302);
    // One client walking every link of the message within a second or two: the second click is the tell.
    const scanner = { "user-agent": CHROME, "x-forwarded-for": "192.0.2.77" };
    await click(clicks[0], scanner);
    await click(clicks[1], scanner);

    const events = await engagement(id);
    expect(events.map((event) => [event.code, event.bot])).toEqual([
      ["EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT", true],
      ["EMAIL_MESSAGE_OPEN_PROVIDER_EVENT", true],
      ["EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT", true],
      ["EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT", false],
      ["EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT", true],
    ]);
    expect(events[0].message).toMatch(
      /Flagged as bot traffic \(clicked \d+\.\d s after sending\): moves no timestamp\.$/,
    );
    expect(events[1].message).toContain(
      "from 17.58.1.2 with Mozilla/5.0. Flagged as bot traffic (Apple Mail Privacy Protection prefetch)",
    );
    expect(events[2].message).toContain("(email security scanner)");
    expect(events[4].message).toContain("(several links clicked by one client within 2 s)");
    const { message } = await messageState(id);
    expect(message.firstOpenedAt).toBeNull();
    expect(message.lastOpenedAt).toBeNull();
    // Only the one human-looking click (the scanner's first, before its burst showed) set the click times.
    expect(message.firstClickedAt).toEqual(events[3].createdAt);
    expect(message.lastClickedAt).toEqual(events[3].createdAt);
  });

  it("forged, tampered or malformed tokens: a 404 page for clicks (never a redirect), the GIF for opens, nothing recorded", async () => {
    const { id, clicks, pixel } = await sentMessage();
    const [payload, mac] = clicks[0].split(".");
    const evil = Buffer.from(`c\n${id}\n0\nhttps://evil.example/`).toString("base64url");
    for (const token of [
      `${evil}.${mac}`,
      `${payload}.${mac.slice(1)}`,
      "nonsense",
      "a.b",
      pixel!,
      `${payload}.${payload}`,
    ]) {
      const res = await click(token);
      expect(res.status, token).toBe(404);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(res.text).toContain("This link is not valid");
    }
    for (const token of ["nonsense", clicks[0], `${pixel!.split(".")[0]}.${mac}`]) {
      const res = await open(token);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/gif");
    }
    // A HEAD (link checkers) answers like a GET but records nothing.
    const head = await callRoute(clickHead, `/t/c/${clicks[0]}`, {
      method: "HEAD",
      params: { token: clicks[0] },
      headers: READER,
    });
    expect(head.status).toBe(302);
    expect(head.headers.get("location")).toBe("https://shop.example/orders/42?src=mail&x=1");
    expect((await callRoute(openHead, `/t/o/${pixel}`, { method: "HEAD", params: { token: pixel! } })).status).toBe(
      200,
    );
    expect(await engagement(id)).toEqual([]);
  });

  it("a message of a workspace that turned tracking off later still redirects, but records nothing", async () => {
    const { id, ws, clicks, pixel } = await sentMessage();
    await (await getDb()).update(workspaces).set({ trackingEnabled: false }).where(eq(workspaces.id, ws.workspace.id));
    expect((await click(clicks[1])).headers.get("location")).toBe("https://shop.example/help");
    expect((await open(pixel!)).status).toBe(200);
    expect(await engagement(id)).toEqual([]);
  });

  it("client IP: first X-Forwarded-For entry, else X-Real-IP, else unknown", async () => {
    const { id, pixel } = await sentMessage();
    await open(pixel!, { "user-agent": CHROME, "x-real-ip": "198.51.100.1" });
    await open(pixel!, { "user-agent": CHROME });
    const events = await engagement(id);
    expect(events[0].message).toContain("from 198.51.100.1 with");
    expect(events[1].message).toContain("from unknown with");
  });
});

describe("the workspace setting", () => {
  it("is on for a new workspace (test fixtures turn it off unless asked)", async () => {
    const workspace = await createWorkspace({ name: "Defaults" });
    expect(workspace.trackingEnabled).toBe(true);
    expect(await isTrackingEnabled(await getDb(), workspace.id)).toBe(true);
  });

  it("off: the provider gets the HTML as rendered: no wrapped links, no pixel", async () => {
    const { html, clicks, pixel, stored } = await sentMessage({ tracking: false });
    expect(clicks).toEqual([]);
    expect(pixel).toBeNull();
    expect(html).toContain('href="https://shop.example/orders/42?src=mail&amp;x=1"');
    expect(html).toContain('href="https://shop.example/help"');
    expect(html).not.toContain("/t/");
    expect(html).toBe(stored);
  });
});
