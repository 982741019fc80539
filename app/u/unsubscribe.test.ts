import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { createUnsubscribeGroup } from "@/lib/domain/contacts/create-unsubscribe-group";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { deliver, messageState } from "@/lib/domain/unsubscribe/testing";
import { signUnsubscribeToken } from "@/lib/domain/unsubscribe/token";
import { GET as oneClickGet, POST as oneClick } from "../api/unsubscribe/[token]/route";
import { POST as confirm } from "./[token]/confirm/route";
import { POST as sendRoute } from "../api/v1/email_messages/handlers";
import UnsubscribePage from "./[token]/page";

const APP = "http://localhost:3000";
const raw = {
  from: "Acme <hello@example.com>",
  subject: "News",
  bodyHtml: "<html><body><p>This week's news.</p></body></html>",
};

/** A live send through the real API route. */
async function sendThroughApi(authorization: string, body: Record<string, unknown>): Promise<string> {
  const res = await callRoute(sendRoute, "/api/v1/email_messages", { authorization, body });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.data.id as string;
}

async function setup() {
  const ws = await createTestWorkspace();
  const group = await createUnsubscribeGroup({ workspaceId: ws.workspace.id, key: "newsletter", name: "Newsletter" });
  return { ws, group };
}

/** RFC 5322 unfolding: a long header line is folded before its value. */
const unfold = (mime: string) => mime.replace(/\r\n(?=[ \t])/g, "");

async function renderPage(token: string): Promise<string> {
  return renderToStaticMarkup(await UnsubscribePage({ params: Promise.resolve({ token }) }));
}

const oneClickPost = (token: string) =>
  callRoute(oneClick, `/api/unsubscribe/${token}`, {
    params: { token },
    rawBody: "List-Unsubscribe=One-Click",
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });

describe("group mail carries an unsubscribe link", () => {
  it("raw HTML gets the link appended, and the MIME carries List-Unsubscribe + List-Unsubscribe-Post (RFC 8058)", async () => {
    const { ws } = await setup();
    const id = await sendThroughApi(ws.authorization, {
      ...raw,
      to: "Ada <Ada@Example.org>, bob@example.org",
      groupKey: "newsletter",
    });
    const token = signUnsubscribeToken(id, "ada@example.org");
    const before = await messageState(id);
    expect(before.message.bodyHtml).toContain(`<a href="${APP}/u/${token}">Unsubscribe</a>`);
    // Placed inside the body, before </body>.
    expect(before.message.bodyHtml).toMatch(/Unsubscribe<\/a>\.<\/p>\n<\/body><\/html>$/);
    expect(before.message.bodyText).toContain(`${APP}/u/${token}`);

    await deliver(ws.workspace.id, id);
    const { message, parsed, inbox } = await messageState(id);
    expect(message.status).toBe("SUCCEEDED");
    const lines = unfold(inbox!.mime).split("\r\n");
    expect(lines).toContain(`List-Unsubscribe: <${APP}/api/unsubscribe/${token}>`);
    expect(lines).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(parsed!.html).toContain(`${APP}/u/${token}`);
    expect(parsed!.text).toContain(`${APP}/u/${token}`);
  });

  it("a template reads {{ unsubscribeUrl }} (nothing appended); mail without a group has neither link nor headers", async () => {
    const { ws } = await setup();
    const template = await ws.createTemplate({
      bodyHtml: '<p>Hi {{ name }}</p><p><a href="{{ unsubscribeUrl }}">Stop these</a></p>',
    });
    const id = await sendThroughApi(ws.authorization, {
      templateId: template.id,
      to: "ada@example.org",
      variables: { name: "Ada" },
      groupKey: "newsletter",
    });
    const token = signUnsubscribeToken(id, "ada@example.org");
    const { message } = await messageState(id);
    expect(message.bodyHtml).toBe(`<p>Hi Ada</p><p><a href="${APP}/u/${token}">Stop these</a></p>`);
    expect(message.variables).toEqual({ name: "Ada" });
    await deliver(ws.workspace.id, id);
    expect(unfold((await messageState(id)).inbox!.mime)).toContain(
      `List-Unsubscribe: <${APP}/api/unsubscribe/${token}>`,
    );

    const plain = await sendThroughApi(ws.authorization, { ...raw, to: "ada@example.org" });
    await deliver(ws.workspace.id, plain);
    const sent = await messageState(plain);
    expect(sent.message.bodyHtml).toBe(raw.bodyHtml);
    expect(sent.inbox!.mime).not.toContain("List-Unsubscribe");
  });
});

describe("GET /u/<token>, POST /u/<token>/confirm and the one-click POST", () => {
  it("the page shows the group, the address and a POST button, and changes nothing", async () => {
    const { ws } = await setup();
    const id = await sendThroughApi(ws.authorization, { ...raw, to: "ada@example.org", groupKey: "newsletter" });
    const token = signUnsubscribeToken(id, "ada@example.org");
    for (let i = 0; i < 2; i++) {
      const html = await renderPage(token);
      expect(html).toContain("Unsubscribe from “Newsletter”?");
      expect(html).toContain("ada@example.org");
      expect(html).toContain(`action="/u/${token}/confirm" method="post"`);
      expect(html).toContain('<button type="submit"');
    }
    const redirect = await callRoute(oneClickGet, `/api/unsubscribe/${token}`, { params: { token } });
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get("location")).toBe(`/u/${token}`);
    const { message, codes } = await messageState(id);
    expect(codes).not.toContain("EMAIL_MESSAGE_CONTACT_UNSUBSCRIBED");
    expect(message.lastUnsubscribedAt).toBeNull();
  });

  it("the page's button unsubscribes and comes back to the page, which says so", async () => {
    const { ws } = await setup();
    const id = await sendThroughApi(ws.authorization, { ...raw, to: "ada@example.org", groupKey: "newsletter" });
    const token = signUnsubscribeToken(id, "ada@example.org");
    const res = await callRoute(confirm, `/u/${token}/confirm`, { method: "POST", params: { token } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/u/${token}`);
    const { message, events } = await messageState(id);
    const event = events.find((e) => e.code === "EMAIL_MESSAGE_CONTACT_UNSUBSCRIBED")!;
    expect(event.message).toBe('ada@example.org unsubscribed from the group "Newsletter" (unsubscribe page).');
    expect(event.details).toMatchObject({ email: "ada@example.org", groupKey: "newsletter", method: "PAGE" });
    expect(message.lastUnsubscribedAt?.getTime()).toBe(event.createdAt.getTime());
    const html = await renderPage(token);
    expect(html).toContain("You are unsubscribed");
    expect(html).not.toContain("<form");
  });

  it("one-click POST records the unsubscribe once; a later group message is suppressed, a transactional one still goes", async () => {
    const { ws } = await setup();
    const first = await sendThroughApi(ws.authorization, {
      ...raw,
      to: "Ada <ada@example.org>",
      groupKey: "newsletter",
    });
    await deliver(ws.workspace.id, first);
    const token = signUnsubscribeToken(first, "ada@example.org");
    for (let i = 0; i < 2; i++) {
      const res = await oneClickPost(token);
      expect(res.status).toBe(200);
      expect(res.json.data).toEqual({
        unsubscribed: true,
        email: "ada@example.org",
        group: { key: "newsletter", name: "Newsletter" },
      });
    }
    const after = await messageState(first);
    expect(after.codes.filter((code) => code === "EMAIL_MESSAGE_CONTACT_UNSUBSCRIBED")).toHaveLength(1);
    expect(after.message.lastUnsubscribedAt).not.toBeNull();
    expect(after.message.status).toBe("SUCCEEDED");

    const later = await sendThroughApi(ws.authorization, { ...raw, to: "ADA@example.org", groupKey: "newsletter" });
    await deliver(ws.workspace.id, later);
    const suppressed = await messageState(later);
    expect(suppressed.message.status).toBe("SUCCEEDED");
    expect(suppressed.message.sentAt).toBeNull();
    expect(suppressed.message.lastSuppressedAt).not.toBeNull();
    expect(suppressed.inbox).toBeNull();
    expect(suppressed.codes).toEqual(["EMAIL_MESSAGE_CREATED", "EMAIL_MESSAGE_RENDERED", "EMAIL_MESSAGE_SUPPRESSED"]);
    const event = suppressed.events.at(-1)!;
    expect(event.message).toBe(
      'Not sent: every recipient is suppressed: ada@example.org (unsubscribed from the group "Newsletter").',
    );
    expect(event.details).toEqual({ suppressed: [{ email: "ada@example.org", reason: "UNSUBSCRIBED" }] });
    expect(suppressed.message.lastSuppressedAt!.getTime()).toBe(event.createdAt.getTime());
    // A retried job finds the message done.
    await deliver(ws.workspace.id, later);
    expect((await messageState(later)).events).toHaveLength(3);

    const receipt = await sendThroughApi(ws.authorization, { ...raw, subject: "Receipt", to: "ada@example.org" });
    await deliver(ws.workspace.id, receipt);
    const sent = await messageState(receipt);
    expect(sent.message.sentAt).not.toBeNull();
    expect(sent.inbox!.envelopeTo).toEqual(["ada@example.org"]);
    expect(sent.codes).not.toContain("EMAIL_MESSAGE_SUPPRESSED");
  });

  it("a forged or unknown token is a 404 everywhere, never an error page", async () => {
    const { ws } = await setup();
    const id = await sendThroughApi(ws.authorization, { ...raw, to: "ada@example.org", groupKey: "newsletter" });
    const good = signUnsubscribeToken(id, "ada@example.org");
    const forged = `${Buffer.from(`${id}\nmallory@example.org`).toString("base64url")}.${good.split(".")[1]}`;
    const unknownMessage = signUnsubscribeToken("em_0000000000000000", "ada@example.org");
    const noGroup = signUnsubscribeToken(
      await sendThroughApi(ws.authorization, { ...raw, to: "ada@example.org" }),
      "ada@example.org",
    );
    for (const token of [forged, unknownMessage, noGroup, "garbage"]) {
      const res = await oneClickPost(token);
      expect(res.status).toBe(404);
      expect(res.json.error).toEqual({ code: "NOT_FOUND", message: "Unsubscribe link not found." });
      const form = await callRoute(confirm, `/u/${token}/confirm`, { method: "POST", params: { token } });
      expect(form.status).toBe(404);
      expect(form.text).toContain("This unsubscribe link is not valid");
      await expect(renderPage(token)).rejects.toMatchObject({ digest: "NEXT_HTTP_ERROR_FALLBACK;404" });
    }
    expect((await messageState(id)).codes).not.toContain("EMAIL_MESSAGE_CONTACT_UNSUBSCRIBED");
  });
});
