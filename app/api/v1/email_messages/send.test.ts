import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { activityLogs, contacts, emailMessages } from "@/db/schema";
import { flushActivityLog } from "@/lib/records/activity/record-activity";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { POST as sandboxPost } from "../sandbox/email_messages/handlers";
import { POST } from "./handlers";

const raw = {
  from: "Acme <hello@example.com>",
  to: '"Doe, Jane" <jane@example.org>, bob@example.org',
  subject: "Your receipt",
  bodyHtml: '<p>Thanks! <a href="https://example.com/r/1">View receipt</a></p>',
};

describe("POST /v1/email_messages", () => {
  it("sends raw content: 201 with the EmailMessage, derived text, contacts and CREATED + RENDERED", async () => {
    const ws = await createTestWorkspace();
    const res = await callRoute(POST, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: {
        ...raw,
        cc: "Carol <carol@example.org>",
        replyTo: "support@example.com",
        metadata: { orderId: 42, vip: true },
        headers: { references: "<abc@example.com>" },
      },
    });
    expect(res.status).toBe(201);
    const message = res.json.data;
    expect(message).toMatchObject({
      type: "EmailMessage",
      source: "API",
      status: "PENDING",
      serviceTemplateId: null,
      to: ['"Doe, Jane" <jane@example.org>', "bob@example.org"],
      cc: ["Carol <carol@example.org>"],
      bcc: [],
      from: "Acme <hello@example.com>",
      replyTo: "support@example.com",
      metadata: { orderId: 42, vip: true },
      metaId: null,
      sentAt: null,
      erroredAt: null,
    });
    expect(message.id).toMatch(/^em_[0-9A-Za-z]{16}$/);
    expect(message.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(message.processedAt).not.toBeNull();

    const db = await getDb();
    const [row] = await db.select().from(emailMessages).where(eq(emailMessages.id, message.id));
    expect(row.bodyText).toBe("Thanks! View receipt [https://example.com/r/1]");
    expect(row.headers).toEqual({ references: "<abc@example.com>" });
    const people = await db.select().from(contacts).where(eq(contacts.workspaceId, ws.workspace.id));
    expect(people.map((c) => [c.email, c.name]).sort()).toEqual([
      ["bob@example.org", null],
      ["carol@example.org", "Carol"],
      ["jane@example.org", "Doe, Jane"],
    ]);
    const events = await callRoute(
      (await import("./[id]/events/handlers")).GET,
      `/api/v1/email_messages/${message.id}/events`,
      {
        authorization: ws.authorization,
        params: { id: message.id },
      },
    );
    expect(events.json.data.map((e: { code: string }) => e.code)).toEqual([
      "EMAIL_MESSAGE_RENDERED",
      "EMAIL_MESSAGE_CREATED",
    ]);
    await flushActivityLog();
    const activity = await db.select().from(activityLogs).where(eq(activityLogs.workspaceId, ws.workspace.id));
    expect(activity).toHaveLength(2);
  });

  it("sends with a template: renders Liquid with currency and pluralize, uses the template's sender", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate({
      subject: "{{ count }} {{ count | pluralize: 'item', 'items' }} for {{ total | currency }}",
      bodyHtml: "<p>Hi {{ name }}</p>",
    });
    const res = await callRoute(POST, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: { templateId: template.id, to: "ann@example.org", variables: { count: 3, total: 12.5, name: "<Ann>" } },
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      serviceTemplateId: template.id,
      from: "Acme <hello@example.com>",
      variables: { count: 3, total: 12.5, name: "<Ann>" },
    });
    const [row] = await (await getDb()).select().from(emailMessages).where(eq(emailMessages.id, res.json.data.id));
    expect(row.subject).toBe("3 items for $12.50");
    expect(row.bodyHtml).toBe("<p>Hi &lt;Ann&gt;</p>");
  });

  it("sandbox: same validation and storage, SUCCEEDED at once, source SANDBOX_API, no contacts", async () => {
    const ws = await createTestWorkspace({ testMode: true });
    const res = await callRoute(sandboxPost, "/api/v1/sandbox/email_messages", {
      authorization: ws.authorization,
      body: raw,
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ source: "SANDBOX_API", status: "SUCCEEDED", sentAt: null });
    const people = await (await getDb()).select().from(contacts).where(eq(contacts.workspaceId, ws.workspace.id));
    expect(people).toHaveLength(0);
    const bad = await callRoute(sandboxPost, "/api/v1/sandbox/email_messages", {
      authorization: ws.authorization,
      body: { ...raw, to: "nope" },
    });
    expect(bad.status).toBe(400);
  });

  it("answers 401 with WWW-Authenticate without valid credentials", async () => {
    const ws = await createTestWorkspace();
    for (const authorization of [
      null,
      "Bearer x",
      `Basic ${Buffer.from(`${ws.key.id}:wrong`).toString("base64")}`,
      "Basic !!!",
    ]) {
      const res = await callRoute(POST, "/api/v1/email_messages", { authorization, body: raw });
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe("UNAUTHORIZED");
      expect(res.headers.get("www-authenticate")).toBe('Basic realm="api"');
    }
    // The one-value form: `Basic username:password` verbatim.
    const verbatim = await callRoute(POST, "/api/v1/email_messages", {
      authorization: `Basic ${ws.key.id}:${ws.key.password}`,
      body: raw,
    });
    expect(verbatim.status).toBe(201);
  });

  it("answers 404 naming templateId for another workspace's template", async () => {
    const mine = await createTestWorkspace();
    const theirs = await createTestWorkspace();
    const template = await theirs.createTemplate();
    const res = await callRoute(POST, "/api/v1/email_messages", {
      authorization: mine.authorization,
      body: { templateId: template.id, to: "a@example.org" },
    });
    expect(res.status).toBe(404);
    expect(res.json.error).toMatchObject({ code: "NOT_FOUND", param: "templateId" });
  });
});

describe("POST /v1/email_messages – bad input changes nothing", () => {
  const cases: Array<[string, Record<string, unknown>, number, string, string | undefined]> = [
    ["to missing", { ...raw, to: undefined }, 400, "EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR", "to"],
    ["to empty", { ...raw, to: " , " }, 400, "EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR", "to"],
    ["to unparsable", { ...raw, to: "jane@" }, 400, "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR", "to"],
    ["cc unparsable", { ...raw, cc: "Carol <carol>" }, 400, "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR", "cc"],
    [
      "51 recipients",
      { ...raw, to: Array.from({ length: 51 }, (_, i) => `u${i}@example.org`).join(",") },
      400,
      "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR",
      "to",
    ],
    ["to of the wrong type", { ...raw, to: 42 }, 400, "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", "to"],
    [
      "templateId and bodyHtml",
      { ...raw, templateId: "tpl_0000000000000000" },
      400,
      "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      "bodyHtml",
    ],
    ["neither", { to: "a@example.org" }, 400, "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", "templateId"],
    ["subject missing", { ...raw, subject: undefined }, 400, "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", "subject"],
    ["from missing", { ...raw, from: undefined }, 422, "EMAIL_MESSAGE_INVALID_SENDER_ERROR", "from"],
    ["from unverified", { ...raw, from: "x@unverified.org" }, 422, "EMAIL_MESSAGE_INVALID_SENDER_ERROR", "from"],
    [
      "header not allowed",
      { ...raw, headers: { "X-Evil": "1" } },
      400,
      "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      "headers.X-Evil",
    ],
    [
      "header injection",
      { ...raw, headers: { references: "<a@b.com>\r\nBcc: x@y.com" } },
      400,
      "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      "headers.references",
    ],
    [
      "references not an id",
      { ...raw, headers: { references: "hello" } },
      400,
      "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      "headers.references",
    ],
    [
      "metadata nested",
      { ...raw, metadata: { a: { b: 1 } } },
      400,
      "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      "metadata.a",
    ],
    [
      "metadata too many keys",
      { ...raw, metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) },
      400,
      "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      "metadata",
    ],
    [
      "variables not an object",
      { templateId: "tpl_0000000000000000", to: "a@example.org", variables: [1] },
      400,
      "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      "variables",
    ],
    ["unknown group", { ...raw, groupKey: "newsletter" }, 404, "NOT_FOUND", "groupKey"],
    [
      "unknown attachment id",
      { ...raw, attachments: [{ name: "a.pdf", contentType: "application/pdf", attachmentId: "attachment_x" }] },
      400,
      "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      "attachments[0].attachmentId",
    ],
    [
      "line break in to",
      { ...raw, to: "a@example.org\r\nBcc: b@example.org" },
      400,
      "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR",
      "to",
    ],
  ];

  it.each(cases)("%s", async (_name, body, status, code, param) => {
    const ws = await createTestWorkspace();
    const res = await callRoute(POST, "/api/v1/email_messages", { authorization: ws.authorization, body });
    expect(res.status).toBe(status);
    expect(res.json.error.code).toBe(code);
    expect(res.json.error.param).toBe(param);
    expect(res.json.error.message.length).toBeGreaterThan(10);
    const rows = await (
      await getDb()
    )
      .select()
      .from(emailMessages)
      .where(eq(emailMessages.workspaceId, ws.workspace.id));
    expect(rows).toHaveLength(0);
  });

  it("refuses non-JSON, wrong content types and oversized bodies", async () => {
    const ws = await createTestWorkspace();
    const notJson = await callRoute(POST, "/api/v1/email_messages", {
      authorization: ws.authorization,
      rawBody: "{nope",
      headers: { "content-type": "application/json" },
    });
    expect([notJson.status, notJson.json.error.code]).toEqual([400, "INVALID_JSON"]);
    const array = await callRoute(POST, "/api/v1/email_messages", { authorization: ws.authorization, body: [raw] });
    expect([array.status, array.json.error.code]).toEqual([400, "INVALID_JSON"]);
    const form = await callRoute(POST, "/api/v1/email_messages", {
      authorization: ws.authorization,
      rawBody: "a=b",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect([form.status, form.json.error.code]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
    const huge = await callRoute(POST, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...raw, bodyHtml: "x".repeat(11 * 1024 * 1024) },
    });
    expect([huge.status, huge.json.error.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
  });

  it("test mode: live mail only to members; a TEMPLATE_RENDER_ERROR for strict templates", async () => {
    const ws = await createTestWorkspace({ testMode: true });
    const live = await callRoute(POST, "/api/v1/email_messages", { authorization: ws.authorization, body: raw });
    expect(live.status).toBe(422);
    expect(live.json.error).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_TEST_MODE_RECIPIENT_ERROR", param: "to" });

    const open = await createTestWorkspace();
    const strict = await open.createTemplate({ strict: true, subject: "Hi {{ firstName }}" });
    const res = await callRoute(POST, "/api/v1/email_messages", {
      authorization: open.authorization,
      body: { templateId: strict.id, to: "a@example.org" },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatchObject({ code: "TEMPLATE_RENDER_ERROR", param: "subject" });
  });
});

describe("metaId idempotency", () => {
  it("replays the same body with 200 and Idempotent-Replayed; a different body is a new message", async () => {
    const ws = await createTestWorkspace();
    const body = { ...raw, metaId: "order-1" };
    const first = await callRoute(POST, "/api/v1/email_messages", { authorization: ws.authorization, body });
    const again = await callRoute(POST, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: { metaId: "order-1", ...raw },
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.data.id).toBe(first.json.data.id);
    const different = await callRoute(POST, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...body, subject: "Another" },
    });
    expect(different.status).toBe(201);
    expect(different.json.data.id).not.toBe(first.json.data.id);
    const sandbox = await callRoute(sandboxPost, "/api/v1/sandbox/email_messages", {
      authorization: ws.authorization,
      body,
    });
    expect(sandbox.status).toBe(201);
  });

  it("two identical concurrent requests create one message", async () => {
    const ws = await createTestWorkspace();
    const body = { ...raw, metaId: "concurrent-1" };
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        callRoute(POST, "/api/v1/email_messages", { authorization: ws.authorization, body }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.json.data.id)).size).toBe(1);
    const rows = await (
      await getDb()
    )
      .select()
      .from(emailMessages)
      .where(eq(emailMessages.workspaceId, ws.workspace.id));
    expect(rows).toHaveLength(1);
  });
});
