import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { contacts, emailMessageLogs, emailMessages, webhookEvents } from "@/db/schema";
import { buildPayloadObjects } from "@/lib/flows/webhooks/build-payloads";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import { auditTrail } from "@/lib/testing/management";

// Where a send's locale comes from (docs/templates.md#where-the-locale-comes-from): the send (single, batch element,
// batch default), else the first `to` contact's, else the template's default; what the message, its timeline, GET and
// webhooks say of it.

/** `en` (default), `fr` and `fr-CA` variants: the subject names the variant that rendered. */
async function localised() {
  const ws = await createTestWorkspace();
  const template = await ws.createTemplate({
    subject: "Hello {{ name }}",
    bodyHtml: '<p lang="{{ locale }}">{% t "greeting" %}</p>',
    locales: {
      defaultLocale: "en",
      variants: [
        { locale: "en", messages: { greeting: "Welcome" } },
        { locale: "fr", subject: "Bonjour {{ name }}", messages: { greeting: "Bienvenue" } },
        { locale: "fr-CA", subject: "Allô {{ name }}", messages: { greeting: "Bienvenue au Québec" } },
      ],
    },
  });
  const send = (body: Record<string, unknown>) =>
    callApi("/v1/email_messages", {
      authorization: ws.authorization,
      body: { templateId: template.id, to: "ada@example.org", variables: { name: "Ada" }, ...body },
    });
  return { ws, template, send };
}

async function messageRow(id: string) {
  const [row] = await (await getDb()).select().from(emailMessages).where(eq(emailMessages.id, id));
  return row;
}

async function renderedSentence(id: string) {
  const [log] = await (
    await getDb()
  )
    .select()
    .from(emailMessageLogs)
    .where(and(eq(emailMessageLogs.emailMessageId, id), eq(emailMessageLogs.code, "EMAIL_MESSAGE_RENDERED")));
  return log.message;
}

async function contactLocaleOf(workspaceId: string, email: string) {
  const [row] = await (
    await getDb()
  )
    .select({ id: contacts.id, locale: contacts.locale })
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.email, email)));
  return row;
}

describe("a send's locale", () => {
  it("renders fr-CA for fr-CA, fr for fr-BE, en for de (canonicalised), stored, on the timeline, GET and webhooks", async () => {
    const { ws, template, send } = await localised();
    const cases = [
      ["fr_ca", "Allô Ada", "Bienvenue au Québec", "fr-CA", "fr-CA", `rendered in fr-CA:`],
      ["fr-BE", "Bonjour Ada", "Bienvenue", "fr", "fr-BE", `rendered in fr (requested fr-BE):`],
      ["DE", "Hello Ada", "Welcome", "en", "de", `rendered in en (requested de):`],
    ] as const;
    for (const [asked, subject, body, used, requested, sentence] of cases) {
      const res = await send({ locale: asked, to: `${used}@example.org` });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      expect(res.json.data).toMatchObject({ subject, locale: used, requestedLocale: requested });
      const row = await messageRow(res.json.data.id);
      expect(row).toMatchObject({ subject, locale: used, requestedLocale: requested });
      expect(row.bodyHtml).toBe(`<p lang="${used}">${body}</p>`);
      expect(await renderedSentence(row.id)).toContain(`Template ${template.id} ${sentence}`);

      const got = await callApi(`/v1/email_messages/${row.id}`, { method: "GET", authorization: ws.authorization });
      expect(got.json.data).toMatchObject({ locale: used, requestedLocale: requested });
      const db = await getDb();
      const events = await db.select().from(webhookEvents).where(eq(webhookEvents.emailMessageId, row.id));
      expect(events.length).toBeGreaterThan(0);
      const payload = (await buildPayloadObjects(db, events)).get(events[0].id) as {
        data: { message: Record<string, unknown> };
      };
      expect(payload.data.message).toMatchObject({ id: row.id, locale: used, requestedLocale: requested });
    }
  });

  it("without a locale: the template's default, nothing requested; a raw send keeps the locale it names", async () => {
    const { ws, send } = await localised();
    const plain = await send({});
    expect(plain.json.data).toMatchObject({ subject: "Hello Ada", locale: "en", requestedLocale: null });
    expect(await renderedSentence(plain.json.data.id)).toMatch(/ rendered in en: subject/);
    const raw = await callApi("/v1/email_messages", {
      authorization: ws.authorization,
      body: { from: "hello@example.com", to: "bob@example.org", subject: "Hi", bodyHtml: "<p>x</p>", locale: "pt_br" },
    });
    expect(raw.json.data).toMatchObject({ locale: "pt-BR", requestedLocale: "pt-BR" });
    expect(await renderedSentence(raw.json.data.id)).toMatch(/^Raw content processed: /);
  });

  it("a malformed tag is a 400 naming locale and writes nothing; a well-formed unknown one falls back", async () => {
    const { ws, send } = await localised();
    for (const locale of ["not a tag", "en--US", "", "x".repeat(101)]) {
      const res = await send({ locale, to: "nobody@example.org" });
      expect(res.status, locale).toBe(400);
      expect(res.json.error).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", param: "locale" });
    }
    const db = await getDb();
    expect(await db.select().from(emailMessages).where(eq(emailMessages.workspaceId, ws.workspace.id))).toEqual([]);
    expect(await db.select().from(contacts).where(eq(contacts.workspaceId, ws.workspace.id))).toEqual([]);
    const unknown = await send({ locale: "tlh" });
    expect(unknown.json.data).toMatchObject({ locale: "en", requestedLocale: "tlh" });
  });
});

describe("the contact's locale", () => {
  it("applies when the send names none; the send's wins; set and cleared by PATCH /v1/contacts/:id (audited)", async () => {
    const { ws, send } = await localised();
    await send({ locale: "fr" }); // learnt: ada@example.org is now fr
    const ada = await contactLocaleOf(ws.workspace.id, "ada@example.org");
    expect(ada.locale).toBe("fr");
    expect((await send({})).json.data).toMatchObject({ subject: "Bonjour Ada", locale: "fr", requestedLocale: "fr" });

    const patched = await callApi(`/v1/contacts/${ada.id}`, {
      method: "PATCH",
      authorization: ws.authorization,
      body: { locale: "FR_ca" },
    });
    expect(patched.status, JSON.stringify(patched.json)).toBe(200);
    expect(patched.json.data).toMatchObject({ id: ada.id, locale: "fr-CA" });
    expect((await send({})).json.data).toMatchObject({ locale: "fr-CA", requestedLocale: "fr-CA" });
    // The send's locale wins over the contact's (and is learnt: an explicit locale overwrites).
    expect((await send({ locale: "en" })).json.data).toMatchObject({ locale: "en", requestedLocale: "en" });
    expect((await contactLocaleOf(ws.workspace.id, "ada@example.org")).locale).toBe("en");

    const bad = await callApi(`/v1/contacts/${ada.id}`, {
      method: "PATCH",
      authorization: ws.authorization,
      body: { locale: "not a tag" },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.param).toBe("locale");
    const unknownField = await callApi(`/v1/contacts/${ada.id}`, {
      method: "PATCH",
      authorization: ws.authorization,
      body: { name: "Ada" },
    });
    expect(unknownField.status).toBe(400);
    expect(unknownField.json.error.param).toBe("name");

    const cleared = await callApi(`/v1/contacts/${ada.id}`, {
      method: "PATCH",
      authorization: ws.authorization,
      body: { locale: null },
    });
    expect(cleared.json.data.locale).toBeNull();
    expect((await send({})).json.data).toMatchObject({ locale: "en", requestedLocale: null });
    const listed = await callApi("/v1/contacts?query=ada@", { method: "GET", authorization: ws.authorization });
    expect(listed.json.data[0]).toMatchObject({ email: "ada@example.org", locale: null });
    // Audited when an admin changes it (the sends that teach it are not audit events).
    const audit = await auditTrail(ws.workspace.id, ["contact.update"]);
    expect(audit.map((event) => [event.before, event.after])).toEqual([
      [{ locale: "fr" }, { locale: "fr-CA" }],
      [{ locale: "en" }, { locale: null }],
    ]);
  });

  it("is learnt by the to contacts only, and a send without a locale keeps it", async () => {
    const { ws, send } = await localised();
    await send({ locale: "fr", to: "ann@example.org, bo@example.org", cc: "cy@example.org" });
    expect((await contactLocaleOf(ws.workspace.id, "ann@example.org")).locale).toBe("fr");
    expect((await contactLocaleOf(ws.workspace.id, "bo@example.org")).locale).toBe("fr");
    expect((await contactLocaleOf(ws.workspace.id, "cy@example.org")).locale).toBeNull();
    await send({ to: "ann@example.org" });
    expect((await contactLocaleOf(ws.workspace.id, "ann@example.org")).locale).toBe("fr");
  });
});

describe("a batch's locales", () => {
  it("each element's, else the batch's default, else the contact's; a bad one named with its index", async () => {
    const { ws, template } = await localised();
    const element = (to: string, extra: Record<string, unknown> = {}) => ({
      templateId: template.id,
      to,
      variables: { name: "Ada" },
      ...extra,
    });
    await callApi("/v1/email_messages", {
      authorization: ws.authorization,
      body: element("known@example.org", { locale: "fr-CA" }),
    });
    const batch = (body: Record<string, unknown>) => callApi("/v1/batches", { authorization: ws.authorization, body });
    const res = await batch({
      locale: "fr",
      emailMessages: [
        element("a@example.org"),
        element("b@example.org", { locale: "de" }),
        element("known@example.org"),
      ],
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const rows = await Promise.all((res.json.data.emailMessageIds as string[]).map(messageRow));
    // The batch's default is the element's own locale, so it wins over known@'s fr-CA (and is learnt).
    expect(rows.map((row) => [row.locale, row.requestedLocale])).toEqual([
      ["fr", "fr"],
      ["en", "de"],
      ["fr", "fr"],
    ]);
    const noDefault = await batch({ emailMessages: [element("a@example.org"), element("c@example.org")] });
    const [first, second] = await Promise.all((noDefault.json.data.emailMessageIds as string[]).map(messageRow));
    expect([first.locale, second.locale]).toEqual(["fr", "en"]);

    const before = await (
      await getDb()
    )
      .select()
      .from(emailMessages)
      .where(eq(emailMessages.workspaceId, ws.workspace.id));
    const badElement = await batch({
      emailMessages: [element("a@example.org"), element("x@example.org", { locale: "??" })],
    });
    expect(badElement.status).toBe(400);
    expect(badElement.json.error).toMatchObject({ param: "emailMessages[1].locale" });
    const badDefault = await batch({ locale: 42, emailMessages: [element("a@example.org")] });
    expect(badDefault.status).toBe(400);
    expect(badDefault.json.error).toMatchObject({ param: "locale" });
    const after = await (
      await getDb()
    )
      .select()
      .from(emailMessages)
      .where(eq(emailMessages.workspaceId, ws.workspace.id));
    expect(after.length).toBe(before.length);
  });
});
