import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { templateLocales } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { auditTrail } from "@/lib/testing/management";
import { duplicateTemplate } from "./duplicate-template";
import { getTemplateVersionOrThrow } from "./get-template-version-or-throw";
import { renderTemplate } from "./render.shared";
import { restoreTemplateVersion } from "./restore-template-version";
import { putTemplateLocale, removeTemplateLocale } from "./save-template-locale";
import { loadTemplateVariant, readTemplateLocales } from "./template-locale-rows";

const BODY = '<p>{% t "hello", name: name %} {% t "cart.items", count: n %} {% t "footer" %}</p>';

/** `en` (default, with its message table), `fr` and `fr-CA` variants. */
async function localisedTemplate() {
  const ws = await createTestWorkspace();
  const template = await ws.createTemplate({
    subject: "Welcome {{ name }}",
    bodyHtml: BODY,
    locales: {
      defaultLocale: "en",
      variants: [
        {
          locale: "en",
          messages: {
            hello: "Hello {name}",
            "cart.items": "{count, plural, one {# item} other {# items}}",
            footer: "Sent by Acme",
          },
        },
        {
          locale: "FR",
          subject: "Bienvenue {{ name }}",
          messages: { hello: "Bonjour {name}", "cart.items": "{count, plural, one {# article} other {# articles}}" },
          fallsBackForMissingKeys: true,
        },
        { locale: "fr_ca", messages: { hello: "Allô {name}" } },
      ],
    },
  });
  const ids = { workspaceId: ws.workspace.id, templateId: template.id };
  return { ws, template, ids };
}

async function renderFor(workspaceId: string, templateId: string, locale: string | null) {
  const { resolved } = await loadTemplateVariant(await getDb(), workspaceId, templateId, locale);
  const rendered = renderTemplate(resolved.source, { name: "Zoé", n: 2 }, { locale: resolved.localeContext });
  return { ...rendered, requestedLocale: resolved.requestedLocale, usedLocale: resolved.usedLocale };
}

describe("the locale fallback chain", () => {
  it("renders fr-CA for fr-CA, fr for fr-BE, en for de; canonicalised; a malformed tag renders the default", async () => {
    const { ids } = await localisedTemplate();
    const render = (locale: string | null) => renderFor(ids.workspaceId, ids.templateId, locale);
    // Exact: fr-CA's own key, fr's for what fr-CA lacks, the subject inherited from fr, en's text for the rest.
    expect(await render("fr-CA")).toMatchObject({
      requestedLocale: "fr-CA",
      usedLocale: "fr-CA",
      subject: "Bienvenue Zoé",
      bodyHtml: "<p>Allô Zoé 2 articles Sent by Acme</p>",
    });
    expect(await render("fr-BE")).toMatchObject({
      requestedLocale: "fr-BE",
      usedLocale: "fr",
      bodyHtml: "<p>Bonjour Zoé 2 articles Sent by Acme</p>",
    });
    expect(await render("de")).toMatchObject({
      requestedLocale: "de",
      usedLocale: "en",
      subject: "Welcome Zoé",
      bodyHtml: "<p>Hello Zoé 2 items Sent by Acme</p>",
    });
    expect(await render("FR_ca")).toMatchObject({ requestedLocale: "fr-CA", usedLocale: "fr-CA" });
    expect(await render("EN_us")).toMatchObject({ requestedLocale: "en-US", usedLocale: "en" });
    expect(await render("not a tag!")).toMatchObject({ requestedLocale: "not a tag!", usedLocale: "en" });
    expect(await render(null)).toMatchObject({ requestedLocale: null, usedLocale: "en" });
  });

  it("reads only the chain's variant rows, however many locales the template has", async () => {
    const { ws, ids } = await localisedTemplate();
    const many = ["de", "es", "it", "nl", "pt-BR", "pl", "sv", "da", "fi", "nb", "cs", "hu", "ro", "tr", "el"];
    for (const locale of many) {
      await putTemplateLocale({
        ...ids,
        userId: null,
        variant: { locale, messages: { hello: `${locale} {name}` }, fallsBackForMissingKeys: true },
      });
    }
    const db = await getDb();
    expect(await db.$count(templateLocales, eq(templateLocales.templateId, ids.templateId))).toBe(18);
    const { variants } = await loadTemplateVariant(db, ws.workspace.id, ids.templateId, "fr-CA");
    expect(variants.map((variant) => variant.locale).sort()).toEqual(["en", "fr", "fr-CA"]);
    // A sibling is not in the chain: pt-PT falls to pt, then to the default, never to pt-BR.
    expect((await renderFor(ids.workspaceId, ids.templateId, "pt-PT")).bodyHtml).toBe(
      "<p>Hello Zoé 2 items Sent by Acme</p>",
    );
    await expect(
      loadTemplateVariant(db, (await createTestWorkspace()).workspace.id, ids.templateId, "fr"),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("writing variants", () => {
  it("canonicalises the tag, bumps the version and refuses what is not well formed, naming the field", async () => {
    const { ids } = await localisedTemplate();
    const saved = await putTemplateLocale({
      ...ids,
      userId: null,
      variant: { locale: "zh_hant", subject: "歡迎", fallsBackForMissingKeys: true },
    });
    expect(saved.version).toBe(2);
    expect((await readTemplateLocales(await getDb(), ids.templateId)).map((variant) => variant.locale).sort()).toEqual([
      "en",
      "fr",
      "fr-CA",
      "zh-Hant",
    ]);
    await expect(putTemplateLocale({ ...ids, userId: null, variant: { locale: "fr--CA" } })).rejects.toMatchObject({
      code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      param: "locale",
      message: expect.stringMatching(/not a well-formed BCP 47 language tag/),
    });
    await expect(
      putTemplateLocale({ ...ids, userId: null, variant: { locale: "en", subject: "Default's own" } }),
    ).rejects.toMatchObject({ param: "subject" });
    await expect(
      putTemplateLocale({
        ...ids,
        userId: null,
        variant: { locale: "de", messages: { n: "{count, plural, one {x}}" } },
      }),
    ).rejects.toMatchObject({
      param: expect.stringMatching(/\.messages$/),
      message: expect.stringMatching(/"n" in de/),
    });
    await expect(
      putTemplateLocale({ ...ids, userId: null, variant: { locale: "de", bodyHtml: "{% if %}" } }),
    ).rejects.toMatchObject({ code: "TEMPLATE_RENDER_ERROR" });
    await expect(removeTemplateLocale({ ...ids, userId: null, locale: "de" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      param: "locale",
    });
    const removed = await removeTemplateLocale({ ...ids, userId: null, locale: "ZH-hant" });
    expect(removed.version).toBe(3);
    const [entry] = (await auditTrail(ids.workspaceId, ["template.locale_delete"])).slice(-1);
    expect(entry.after).toMatchObject({ version: 3, changed: ["locales"], locale: "zh-Hant" });
  });
});

describe("versions hold the variants", () => {
  it("a version snapshots every variant and a restore brings them back together", async () => {
    const { ids } = await localisedTemplate();
    expect(
      (await getTemplateVersionOrThrow(ids.workspaceId, ids.templateId, 1)).locales.map((v) => v.locale).sort(),
    ).toEqual(["en", "fr", "fr-CA"]);
    await putTemplateLocale({
      ...ids,
      userId: null,
      variant: { locale: "fr", messages: { hello: "Salut {name}" }, fallsBackForMissingKeys: true },
    });
    await removeTemplateLocale({ ...ids, userId: null, locale: "fr-CA" });
    expect((await renderFor(ids.workspaceId, ids.templateId, "fr-CA")).bodyHtml).toBe(
      "<p>Salut Zoé 2 items Sent by Acme</p>",
    );
    const restored = await restoreTemplateVersion({ ...ids, version: 1, userId: null });
    expect(restored.version).toBe(4);
    expect(await renderFor(ids.workspaceId, ids.templateId, "fr-CA")).toMatchObject({
      usedLocale: "fr-CA",
      subject: "Bienvenue Zoé",
      bodyHtml: "<p>Allô Zoé 2 articles Sent by Acme</p>",
    });
    const v4 = await getTemplateVersionOrThrow(ids.workspaceId, ids.templateId, 4);
    expect(v4).toMatchObject({ restoredFromVersion: 1, defaultLocale: "en" });
    expect(v4.locales.find((variant) => variant.locale === "fr")).toMatchObject({
      subject: "Bienvenue {{ name }}",
      fallsBackForMissingKeys: true,
      messages: { hello: "Bonjour {name}" },
    });
    const [entry] = await auditTrail(ids.workspaceId, ["template.restore"]);
    expect(entry.after).toMatchObject({ changed: ["locales"] });
  });

  it("a version saved before any variant restores to none; the default locale is restored too", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate();
    const ids = { workspaceId: ws.workspace.id, templateId: template.id };
    expect(await getTemplateVersionOrThrow(ids.workspaceId, ids.templateId, 1)).toMatchObject({
      defaultLocale: "en",
      locales: [],
    });
    await putTemplateLocale({ ...ids, userId: null, variant: { locale: "ar", subject: "مرحبا" } });
    expect(await renderFor(ids.workspaceId, ids.templateId, "ar-EG")).toMatchObject({
      usedLocale: "ar",
      subject: "مرحبا",
    });
    await restoreTemplateVersion({ ...ids, version: 1, userId: null });
    expect(await readTemplateLocales(await getDb(), ids.templateId)).toEqual([]);
    expect(await renderFor(ids.workspaceId, ids.templateId, "ar-EG")).toMatchObject({ usedLocale: "en" });
  });
});

describe("duplicateTemplate", () => {
  it("copies the default locale and every variant", async () => {
    const { ids } = await localisedTemplate();
    const copy = await duplicateTemplate({ ...ids, userId: null });
    expect(copy.defaultLocale).toBe("en");
    const db = await getDb();
    const strip = (rows: Awaited<ReturnType<typeof readTemplateLocales>>) =>
      rows.sort((a, b) => a.locale.localeCompare(b.locale));
    expect(strip(await readTemplateLocales(db, copy.id))).toEqual(strip(await readTemplateLocales(db, ids.templateId)));
    expect((await getTemplateVersionOrThrow(ids.workspaceId, copy.id, 1)).locales).toHaveLength(3);
    expect((await renderFor(ids.workspaceId, copy.id, "fr-CA")).bodyHtml).toBe(
      "<p>Allô Zoé 2 articles Sent by Acme</p>",
    );
  });
});
