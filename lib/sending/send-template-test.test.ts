import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages } from "@/db/schema/index";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { createUser } from "@/lib/domain/users/create-user";
import { previewDraft } from "@/lib/domain/templates/preview-draft";
import { sendTemplateTest } from "./send-template-test";

let counter = 0;

async function setup(options: { testMode?: boolean } = {}) {
  const ws = await createTestWorkspace(options);
  const template = await ws.createTemplate({ subject: "Stored subject", bodyHtml: "<p>Stored body</p>" });
  const email = `member-${Date.now()}-${counter++}@team.test`;
  const user = await createUser({ email, password: "member-password", workspaceId: ws.workspace.id, role: "MEMBER" });
  return { ws, template, user, at: { workspaceId: ws.workspace.id, templateId: template.id, userId: user.id } };
}

// An unsaved draft: not what is stored, which is the point of testing before saving.
const draft = {
  subject: "Hi {{ user.name }}",
  bodyHtml: "<h1>Hello {{ user.name }}</h1>\n<p>{{ items | size }} items & {{ note }}</p>",
  bodyText: null,
  fromAddress: "{{ team }} <hello@example.com>",
  replyTo: "help@example.com",
  strict: false,
  variables: { user: { name: "<Ada>" }, items: [1, 2], team: "Acme" },
};

async function messagesOf(workspaceId: string) {
  return (await getDb()).select().from(emailMessages).where(eq(emailMessages.workspaceId, workspaceId));
}

describe("sendTemplateTest", () => {
  it("sends the unsaved draft live to the member's own address, exactly as previewed, and it is delivered", async () => {
    const { ws, template, user, at } = await setup();
    const message = await sendTemplateTest({ ...at, mode: "me", draft });
    const preview = previewDraft(draft).rendered!;
    expect(message).toMatchObject({
      source: "PREVIEW",
      sandbox: false,
      status: "PENDING",
      templateId: template.id,
      to: [user.email],
      from: "Acme <hello@example.com>",
      replyTo: "help@example.com",
      subject: preview.subject,
      bodyHtml: preview.bodyHtml,
      bodyText: preview.bodyText,
      variables: draft.variables,
      metadata: { test: "template", templateId: template.id },
    });
    expect(message.bodyHtml).toContain("<h1>Hello &lt;Ada&gt;</h1>");
    await deliverMessage({ workspaceId: ws.workspace.id, messageId: message.id }, { attempt: 0 });
    const state = await readMessageState(message.id);
    expect(state.codes).toEqual([
      "EMAIL_MESSAGE_CREATED",
      "EMAIL_MESSAGE_RENDERED",
      "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
      "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
    ]);
    expect(state.inbox).toHaveLength(1);
  });

  it("makes a sandbox test that is never delivered", async () => {
    const { ws, at } = await setup();
    const message = await sendTemplateTest({ ...at, mode: "sandbox", draft });
    expect(message).toMatchObject({ source: "PREVIEW", sandbox: true, status: "SUCCEEDED", subject: "Hi <Ada>" });
    await deliverMessage({ workspaceId: ws.workspace.id, messageId: message.id }, { attempt: 0 });
    expect((await readMessageState(message.id)).inbox).toEqual([]);
  });

  it("sends live to the member even when the workspace is in test mode", async () => {
    const { ws, user, at } = await setup({ testMode: true });
    const message = await sendTemplateTest({ ...at, mode: "me", draft });
    expect(message).toMatchObject({ sandbox: false, status: "PENDING", to: [user.email] });
    await deliverMessage({ workspaceId: ws.workspace.id, messageId: message.id }, { attempt: 0 });
    expect((await readMessageState(message.id)).inbox).toHaveLength(1);
  });

  it("asks for a default sender when the draft has none, and creates nothing", async () => {
    const { ws, at } = await setup();
    await expect(sendTemplateTest({ ...at, mode: "me", draft: { ...draft, fromAddress: "" } })).rejects.toMatchObject({
      code: "EMAIL_MESSAGE_INVALID_SENDER_ERROR",
      param: "fromAddress",
      message: expect.stringContaining("default sender"),
    });
    await expect(
      sendTemplateTest({ ...at, mode: "sandbox", draft: { ...draft, fromAddress: "Acme <hello@unverified.test>" } }),
    ).rejects.toMatchObject({
      code: "EMAIL_MESSAGE_INVALID_SENDER_ERROR",
      param: "fromAddress",
    });
    expect(await messagesOf(ws.workspace.id)).toEqual([]);
  });

  it("refuses a draft that does not render, naming the field, line and column, and creates nothing", async () => {
    const { ws, at } = await setup();
    await expect(
      sendTemplateTest({ ...at, mode: "me", draft: { ...draft, bodyHtml: "<p>\n  {% if x %}\n</p>" } }),
    ).rejects.toMatchObject({
      code: "TEMPLATE_RENDER_ERROR",
      param: "bodyHtml",
      message: expect.stringContaining("line 2, column 3"),
    });
    await expect(
      sendTemplateTest({ ...at, mode: "me", draft: { ...draft, strict: true, variables: {} } }),
    ).rejects.toMatchObject({ code: "TEMPLATE_RENDER_ERROR" });
    await expect(sendTemplateTest({ ...at, mode: "me", draft: { ...draft, subject: 42 } })).rejects.toMatchObject({
      param: "subject",
    });
    await expect(sendTemplateTest({ ...at, mode: "me", draft: { ...draft, variables: [1] } })).rejects.toMatchObject({
      param: "variables",
    });
    await expect(sendTemplateTest({ ...at, mode: "later" as never, draft })).rejects.toMatchObject({ param: "mode" });
    expect(await messagesOf(ws.workspace.id)).toEqual([]);
  });

  it("treats another workspace's template, or a user who is not a member, as not found", async () => {
    const { ws, template, user, at } = await setup();
    const other = await setup();
    await expect(
      sendTemplateTest({ ...at, templateId: other.template.id, mode: "sandbox", draft }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", param: "templateId" });
    await expect(sendTemplateTest({ ...at, userId: other.user.id, mode: "me", draft })).rejects.toMatchObject({
      code: "NOT_FOUND",
      param: "userId",
    });
    await expect(
      sendTemplateTest({
        workspaceId: other.ws.workspace.id,
        templateId: template.id,
        userId: user.id,
        mode: "me",
        draft,
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await messagesOf(ws.workspace.id)).toEqual([]);
    expect(await messagesOf(other.ws.workspace.id)).toEqual([]);
  });
  it("sends the studio's shown locale: the draft's variant rendered along its chain, as its preview showed", async () => {
    const { at } = await setup();
    const localised = {
      ...draft,
      bodyHtml: '<p>{% t "greeting" %}, {{ user.name }}</p>',
      defaultLocale: "en",
      variants: [
        { locale: "en", messages: { greeting: "Hello" } },
        { locale: "de", subject: "Hallo {{ user.name }}", messages: { greeting: "Guten Tag" } },
      ],
      locale: "de",
    };
    const message = await sendTemplateTest({ ...at, mode: "sandbox", draft: localised });
    expect(message).toMatchObject({ sandbox: true, subject: "Hallo <Ada>" });
    expect(message.bodyHtml).toContain("Guten Tag, &lt;Ada&gt;");
    expect(message.bodyHtml).toBe(previewDraft(localised).rendered!.bodyHtml);
  });
});
