import { describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import { apiAuditEntries, auditTrail, expectRefusal, scopedAuthorization } from "@/lib/testing/management";
import { EN_MESSAGES as EN, localisedTemplateApi as setup } from "@/lib/testing/template-locales";

// The management API of template locales (docs/api.md#template-locales), through the route table.

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
