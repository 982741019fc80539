import { describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import * as documented from "@/lib/entry/api/openapi/resources-templates";
import { apiAuditEntries, auditTrail, expectRefusal, scopedAuthorization } from "@/lib/testing/management";

// The management API of template locales (docs/api.md#template-locales), through the route table.

const BODY =
  '<p>{% t "hello", name: name %} {{ "cart.items" | t: count: n }}</p>{% if vip %}{% t "vip.note" %}{% endif %}';
const EN = {
  hello: "Hello {name}",
  "cart.items": "{count, plural, one {# item} other {# items}}",
  "vip.note": "Thanks for being a VIP",
};

async function setup() {
  const ws = await createTestWorkspace();
  const template = await ws.createTemplate({ name: "Order receipt", subject: "Hi {{ name }}", bodyHtml: BODY });
  const auth = ws.authorization;
  const base = `/api/v1/templates/${template.id}/locales`;
  const put = (locale: string, body: unknown, headers: Record<string, string> = {}) =>
    callApi(`${base}/${locale}`, { method: "PUT", authorization: auth, body, headers });
  const get = (locale: string) => callApi(`${base}/${locale}`, { authorization: auth });
  const remove = (locale: string, headers: Record<string, string> = {}) =>
    callApi(`${base}/${locale}`, { method: "DELETE", authorization: auth, headers });
  const importTable = (locale: string, body: unknown) =>
    callApi(`${base}/${locale}/messages`, { method: "PUT", authorization: auth, body });
  const exportTable = (locale: string) => callApi(`${base}/${locale}/messages`, { authorization: auth });
  return { ws, template, auth, base, put, get, remove, importTable, exportTable };
}

describe("PUT, GET and DELETE /v1/templates/:id/locales/:locale", () => {
  it("saves a variant as the next version under its canonical tag, reads and deletes it; audited", async () => {
    const t = await setup();
    expect((await t.importTable("en", EN)).status).toBe(200);
    const saved = await t.put("fr_ca", {
      subject: "Salut {{ name }}",
      messages: { hello: "Allô {name}", "cart.items": "{count, plural, one {# article} other {# articles}}" },
      sampleData: { name: "Zoé" },
      fallsBackForMissingKeys: true,
      version: 2,
    });
    expect(saved.status).toBe(200);
    expect(saved.headers.get("etag")).toBe('"3"');
    expect(saved.json.data).toMatchObject({
      type: "TemplateLocale",
      templateId: t.template.id,
      locale: "fr-CA",
      isDefault: false,
      overrides: ["subject"],
      messageCount: 2,
      missingKeys: ["vip.note"],
      fallsBackForMissingKeys: true,
      templateVersion: 3,
      subject: "Salut {{ name }}",
      bodyHtml: null,
      sampleData: { name: "Zoé" },
    });
    expect((await t.get("FR-ca")).json.data).toMatchObject({ locale: "fr-CA", messages: { hello: "Allô {name}" } });

    const listed = await callApi(t.base, { authorization: t.auth });
    expect(listed.json.meta).toEqual({ count: 2, defaultLocale: "en", templateVersion: 3 });
    expect(listed.json.data.map((entry: { locale: string }) => entry.locale)).toEqual(["en", "fr-CA"]);
    expect(listed.json.data[0]).toMatchObject({ isDefault: true, messageCount: 3, missingKeys: [], overrides: [] });

    // A stale version is refused; the default cannot be deleted; an unknown variant is 404.
    await expectRefusal(
      t.ws.workspace.id,
      null,
      `${t.base}/fr-CA`,
      {
        method: "DELETE",
        authorization: t.auth,
        headers: { "if-match": '"2"' },
      },
      { status: 409, param: "If-Match", code: "CONFLICT" },
    );
    expect((await t.remove("en")).json.error).toMatchObject({ code: "CONFLICT", param: "locale" });
    expect((await t.remove("de")).json.error).toMatchObject({ code: "NOT_FOUND", param: "locale" });
    const removed = await t.remove("fr-ca", { "if-match": '"3"' });
    expect([removed.status, removed.json.data]).toEqual([
      200,
      { templateId: t.template.id, locale: "fr-CA", deleted: true },
    ]);
    expect((await t.get("fr-CA")).status).toBe(404);

    const entries = await auditTrail(t.ws.workspace.id, [
      "template.locale_put",
      "template.locale_delete",
      "template.messages_import",
    ]);
    expect(entries.map((entry) => [entry.action, entry.actorType, (entry.after as { locale: string }).locale])).toEqual(
      [
        ["template.messages_import", "API_KEY", "en"],
        ["template.locale_put", "API_KEY", "fr-CA"],
        ["template.locale_delete", "API_KEY", "fr-CA"],
      ],
    );
    expect(entries[1].after).toMatchObject({ version: 3, changed: ["locales"] });
    expect(entries[0].after).toMatchObject({ messageCount: 3 });
  });

  it("refuses a malformed tag, a bad body and the default's content naming the field; 401, 403 and 404", async () => {
    const t = await setup();
    const id = t.ws.workspace.id;
    const put = (path: string, body: unknown, param: string, status = 400) =>
      expectRefusal(id, null, `${t.base}/${path}`, { method: "PUT", authorization: t.auth, body }, { status, param });
    await put("fr--CA", {}, "locale");
    expect((await t.get("not a tag")).json.error).toMatchObject({
      code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      param: "locale",
    });
    await put("fr", { subject: 3 }, "subject");
    await put("fr", { messages: { hello: { nested: "x" } } }, 'messages["hello"]');
    await put("fr", { messages: { "bad key!": "x" } }, 'messages["bad key!"]');
    await put("fr", { fallsBackForMissingKeys: "yes" }, "fallsBackForMissingKeys");
    await put("fr", { sibject: "x" }, "sibject");
    await put("en", { subject: "Default's own" }, "subject");
    await put("fr", { bodyHtml: "{% if %}", fallsBackForMissingKeys: true }, "bodyHtml", 422);

    expect((await callApi(`${t.base}/fr`, { method: "PUT", body: {} })).status).toBe(401);
    const reader = await scopedAuthorization(id, ["templates:read"]);
    expect((await callApi(`${t.base}/fr`, { method: "PUT", authorization: reader, body: {} })).status).toBe(403);
    expect((await callApi(t.base, { authorization: reader })).status).toBe(200);
    const other = await createTestWorkspace();
    for (const path of [t.base, `${t.base}/en`, `${t.base}/en/messages`]) {
      expect((await callApi(path, { authorization: other.authorization })).json.error).toMatchObject({
        code: "NOT_FOUND",
        param: "id",
      });
    }
    expect((await apiAuditEntries(id)).length).toBe(0);
  });
});

describe("the missing-translation lint", () => {
  it("refuses a variant lacking keys the template uses, listing them, unless it falls back for missing keys", async () => {
    const t = await setup();
    const refused = await expectRefusal(
      t.ws.workspace.id,
      null,
      `${t.base}/fr`,
      { method: "PUT", authorization: t.auth, body: { messages: { hello: "Bonjour {name}" } } },
      { status: 422, param: "messages", code: "TEMPLATE_MISSING_TRANSLATIONS" },
    );
    expect(refused.json.error.message).toMatch(/"cart.items", "vip.note"/);
    expect(refused.json.error.details).toEqual([
      expect.objectContaining({ index: 0, param: 'messages["cart.items"]', code: "TEMPLATE_MISSING_TRANSLATIONS" }),
      expect.objectContaining({ index: 1, param: 'messages["vip.note"]', code: "TEMPLATE_MISSING_TRANSLATIONS" }),
    ]);
    // A key of a variant's own body counts (its effective source), and its language's table fills a region's.
    const lacking = await t.put("fr", { bodyHtml: '<p>{% t "only.fr" %}</p>', messages: {} });
    expect(lacking.json.error.details.map((detail: { param: string }) => detail.param)).toEqual([
      'messages["only.fr"]',
    ]);

    const through = await t.put("fr", { messages: { hello: "Bonjour {name}" }, fallsBackForMissingKeys: true });
    expect(through.status).toBe(200);
    expect(through.json.data.missingKeys).toEqual(["cart.items", "vip.note"]);
    const region = await t.put("fr-BE", {
      messages: { "cart.items": "{count, plural, other {# articles}}", "vip.note": "Merci" },
    });
    expect([region.status, region.json.data.missingKeys]).toEqual([200, []]);
    // The default is linted too (its table is what every variant falls back to), and an import is a save like any.
    expect((await t.importTable("en", { hello: "Hello" })).json.error).toMatchObject({
      code: "TEMPLATE_MISSING_TRANSLATIONS",
      details: [
        expect.objectContaining({ param: 'messages["cart.items"]' }),
        expect.objectContaining({ param: 'messages["vip.note"]' }),
      ],
    });
    const listed = await callApi(t.base, { authorization: t.auth });
    expect(
      listed.json.data.map((entry: { locale: string; missingKeys: string[] }) => [entry.locale, entry.missingKeys]),
    ).toEqual([
      ["en", ["cart.items", "hello", "vip.note"]],
      ["fr", ["cart.items", "vip.note"]],
      ["fr-BE", []],
    ]);
  });
});

describe("message tables as translators' files", () => {
  it("exports a locale's table as a JSON attachment and imports it back; ICU plurals survive", async () => {
    const t = await setup();
    const ru = {
      hello: "Привет, {name}",
      "cart.items": "{count, plural, one {# товар} few {# товара} many {# товаров} other {# товара}}",
      "vip.note": "It''s '{'literal'}' {kind, select, gold {золото} other {спасибо}}",
    };
    const imported = await t.importTable("RU", ru);
    expect([imported.status, imported.json.data.locale, imported.json.data.messageCount]).toEqual([200, "ru", 3]);
    const exported = await t.exportTable("ru");
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toMatch(/^application\/json/);
    expect(exported.headers.get("content-disposition")).toBe('attachment; filename="order-receipt-ru.json"');
    expect(exported.json).toEqual(ru);
    expect(Object.keys(exported.json)).toEqual(["cart.items", "hello", "vip.note"]);
    // Round trip: the exported file imported into another locale is the same table.
    expect((await t.importTable("uk", exported.json)).status).toBe(200);
    expect((await t.exportTable("uk")).json).toEqual(ru);
    // The default locale exports an empty table before it has one; an unknown variant is 404.
    expect((await t.exportTable("en")).json).toEqual({});
    expect((await t.exportTable("de")).json.error).toMatchObject({ code: "NOT_FOUND", param: "locale" });

    const rendered = await callApi(`/api/v1/templates/${t.template.id}/render`, {
      authorization: t.auth,
      body: { locale: "ru", variables: { name: "Ада", n: 3 } },
    });
    expect(rendered.json.data.bodyHtml).toBe("<p>Привет, Ада 3 товара</p>");
  });

  it("refuses a table that is not flat keys to ICU messages, naming the key", async () => {
    const t = await setup();
    const refuse = (body: unknown, param: string) =>
      expectRefusal(
        t.ws.workspace.id,
        null,
        `${t.base}/fr/messages`,
        { method: "PUT", authorization: t.auth, body },
        { status: 400, param },
      );
    const bad = await refuse({ ...EN, hello: "{count, plural, one {# item}" }, 'messages["hello"]');
    expect(bad.json.error.message).toMatch(/not an ICU message/);
    await refuse({ ...EN, "cart.items": "{count, plural, one {x}}" }, 'messages["cart.items"]');
    await refuse({ ...EN, cart: { title: "Cart" } }, 'messages["cart"]');
    await refuse({ ...EN, ["x".repeat(129)]: "long" }, `messages["${"x".repeat(129)}"]`);
    await refuse(["hello"], "messages");
  });
});

describe("versions, the default locale, and rendering in a locale", () => {
  it("a restore brings back the variants of its version", async () => {
    const t = await setup();
    await t.importTable("en", EN);
    await t.put("fr", { messages: { hello: "Bonjour {name}" }, fallsBackForMissingKeys: true }); // v3
    await t.put("fr", { messages: { hello: "Salut {name}" }, fallsBackForMissingKeys: true }); // v4
    await t.put("de", { subject: "Hallo", fallsBackForMissingKeys: true }); // v5
    const version = await callApi(`/api/v1/templates/${t.template.id}/versions/3`, { authorization: t.auth });
    expect(version.json.data).toMatchObject({ defaultLocale: "en", locales: ["en", "fr"] });
    const restored = await callApi(`/api/v1/templates/${t.template.id}/versions/3/restore`, {
      method: "POST",
      authorization: t.auth,
    });
    expect(restored.json.data).toMatchObject({ version: 6, defaultLocale: "en" });
    expect((await t.get("fr")).json.data.messages).toEqual({ hello: "Bonjour {name}" });
    expect((await t.get("de")).status).toBe(404);
  });

  it("PATCH defaultLocale: canonicalised, a new version; refused when that locale has content of its own", async () => {
    const t = await setup();
    const patch = (body: unknown) =>
      callApi(`/api/v1/templates/${t.template.id}`, { method: "PATCH", authorization: t.auth, body });
    await t.put("de", { subject: "Hallo", fallsBackForMissingKeys: true });
    await t.put("fr", { messages: EN });
    expect((await patch({ defaultLocale: "en_gb!" })).json.error).toMatchObject({ param: "defaultLocale" });
    expect((await patch({ defaultLocale: "DE" })).json.error).toMatchObject({
      code: "CONFLICT",
      param: "defaultLocale",
    });
    const changed = await patch({ defaultLocale: "fr" });
    expect(changed.json.data).toMatchObject({ defaultLocale: "fr", version: 4 });
    const [entry] = (await auditTrail(t.ws.workspace.id, ["template.update"])).slice(-1);
    expect([entry.before, entry.after]).toMatchObject([{ defaultLocale: "en" }, { defaultLocale: "fr" }]);
    expect((await t.get("fr")).json.data).toMatchObject({ isDefault: true, messageCount: 3 });
  });

  it("/render and /preview take a locale along the chain and say which was used", async () => {
    const t = await setup();
    await t.importTable("en", EN);
    await t.put("fr", {
      subject: "Bonjour {{ name }}",
      messages: { hello: "Bonjour {name}" },
      fallsBackForMissingKeys: true,
    });
    await t.put("fr-CA", { messages: { hello: "Allô {name}" }, fallsBackForMissingKeys: true });
    const render = (locale?: unknown) =>
      callApi(`/api/v1/templates/${t.template.id}/render`, {
        authorization: t.auth,
        body: { variables: { name: "Zoé", n: 1 }, ...(locale === undefined ? {} : { locale }) },
      });
    const cases: Array<[string | undefined, string, string | null, string, string]> = [
      ["fr-CA", "fr-CA", "fr-CA", "Bonjour Zoé", "<p>Allô Zoé 1 item</p>"],
      ["fr_be", "fr", "fr-BE", "Bonjour Zoé", "<p>Bonjour Zoé 1 item</p>"],
      ["de", "en", "de", "Hi Zoé", "<p>Hello Zoé 1 item</p>"],
      [undefined, "en", null, "Hi Zoé", "<p>Hello Zoé 1 item</p>"],
    ];
    for (const [asked, used, requested, subject, html] of cases) {
      const answer = await render(asked);
      expect(answer.json.data, String(asked)).toMatchObject({
        locale: used,
        requestedLocale: requested,
        subject,
        bodyHtml: html,
      });
      expect(answer.headers.get("content-language")).toBe(used);
      // The second render of a request comes from the per-version caches and answers the same.
      expect((await render(asked)).json.data.bodyHtml).toBe(html);
    }
    expect((await render("en--US")).json.error).toMatchObject({
      code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      param: "locale",
    });

    const preview = (query: string) =>
      callApi(`/api/v1/templates/${t.template.id}/preview${query}`, {
        authorization: t.auth,
        body: { name: "Zoé", n: 2 },
      });
    for (const [query, used, html] of [
      ["?locale=fr-CA", "fr-CA", "<p>Allô Zoé 2 items</p>"],
      ["?locale=fr-BE", "fr", "<p>Bonjour Zoé 2 items</p>"],
      ["?locale=de", "en", "<p>Hello Zoé 2 items</p>"],
      ["", "en", "<p>Hello Zoé 2 items</p>"],
    ]) {
      const answer = await preview(query);
      expect([answer.status, answer.headers.get("content-language"), answer.text], query).toEqual([200, used, html]);
    }
    expect((await preview("?locale=fr-BE")).headers.get("x-postwerk-requested-locale")).toBe("fr-BE");
    expect((await preview("?locale=%%")).json.error).toMatchObject({ param: "locale" });
  });
});

describe("the OpenAPI document's locale resources", () => {
  it("match what the endpoints answer (strict: a field the document lacks fails)", async () => {
    const t = await setup();
    const saved = await t.put("fr", { subject: "Salut", messages: { hello: "Salut" }, fallsBackForMissingKeys: true });
    documented.templateLocaleResource.strict().parse(saved.json.data);
    documented.templateLocaleResource.strict().parse((await t.get("en")).json.data);
    const listed = await callApi(t.base, { authorization: t.auth });
    documented.templateLocaleListMeta.strict().parse(listed.json.meta);
    for (const entry of listed.json.data) documented.templateLocaleSummary.strict().parse(entry);
    documented.messageTable.parse((await t.exportTable("fr")).json);
    documented.deletedTemplateLocale.strict().parse((await t.remove("fr")).json.data);
  });
});
