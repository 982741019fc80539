import { describe, expect, it } from "vitest";
import * as documented from "@/lib/entry/api/openapi/resources-templates";
import { callApi } from "@/lib/testing/http";
import { auditTrail } from "@/lib/testing/management";
import { EN_MESSAGES as EN, localisedTemplateApi as setup } from "@/lib/testing/template-locales";

// Template locales with versions, the default locale, /render and /preview (docs/api.md#template-locales).

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
