import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/foundation/errors";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { auditTrail } from "@/lib/testing/management";
import { getTemplateVersionOrThrow } from "./get-template-version-or-throw";
import { previewDraft } from "./preview-draft";
import { publishTemplateDraft } from "./publish-template-draft";
import { readTemplateLocales } from "./template-locale-rows";
import { getDb } from "@/db/client";

const BODY = '<p>{% t "greeting" %}, {{ name }}. {% t "farewell" %}</p>';
const content = { name: "Studio", subject: "Hi {{ name }}", bodyHtml: BODY };
const en = { locale: "en", messages: { greeting: "Hello", farewell: "Bye" } };

async function studioTemplate() {
  const ws = await createTestWorkspace();
  const template = await ws.createTemplate({ ...content, locales: { defaultLocale: "en", variants: [en] } });
  const publish = (variants: unknown[], baseVersion = template.version) =>
    publishTemplateDraft({
      workspaceId: ws.workspace.id,
      templateId: template.id,
      userId: null,
      baseVersion,
      content,
      variants: variants as never,
    });
  return { ws, template, publish };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("publishTemplateDraft", () => {
  it("publishes the content and every variant as one version, audited as template.update with locales changed", async () => {
    const { ws, template, publish } = await studioTemplate();
    const de = {
      locale: "de",
      subject: "Hallo {{ name }}",
      bodyHtml: BODY,
      messages: { greeting: "Hallo", farewell: "Tschüss" },
    };
    const saved = await publish([en, de]);
    expect(saved.version).toBe(template.version + 1);
    const rows = await readTemplateLocales(await getDb(), template.id);
    expect(rows.map((row) => [row.locale, row.subject, row.messages])).toEqual([
      ["de", "Hallo {{ name }}", { greeting: "Hallo", farewell: "Tschüss" }],
      ["en", null, en.messages],
    ]);
    const version = await getTemplateVersionOrThrow(ws.workspace.id, template.id, saved.version);
    expect(version.locales.map((variant) => variant.locale).sort()).toEqual(["de", "en"]);
    const [audit] = (await auditTrail(ws.workspace.id, ["template.update"])).slice(-1);
    expect(audit.after).toMatchObject({ version: saved.version, changed: ["locales"] });
  });

  it("refuses a variant missing a used key, listing the locale and its keys, and saves nothing", async () => {
    const { template, publish } = await studioTemplate();
    const error = await refusal(publish([en, { locale: "de", messages: { greeting: "Hallo" } }]));
    expect(error.code).toBe("TEMPLATE_MISSING_TRANSLATIONS");
    expect(error.param).toBe('locales["de"].messages');
    expect(error.message).toContain('de lacks "farewell"');
    expect(error.details?.map((detail) => detail.param)).toEqual(['locales["de"].messages["farewell"]']);
    expect(await readTemplateLocales(await getDb(), template.id)).toHaveLength(1);
  });

  it("lists every short locale, the default's own table included", async () => {
    const { publish } = await studioTemplate();
    const error = await refusal(
      publish([
        { locale: "en", messages: { greeting: "Hello" } },
        { locale: "fr", messages: {} },
      ]),
    );
    expect(error.message).toContain('en lacks "farewell"; fr lacks "farewell", "greeting"');
    expect(error.details).toHaveLength(3);
  });

  it("publishes a variant that falls back for missing keys", async () => {
    const { template, publish } = await studioTemplate();
    const saved = await publish([en, { locale: "de", messages: { greeting: "Hallo" }, fallsBackForMissingKeys: true }]);
    expect(saved.version).toBe(template.version + 1);
  });

  it("removes the variants the draft no longer has, and refuses a stale base version naming baseVersion", async () => {
    const { template, publish } = await studioTemplate();
    await publish([en, { locale: "de", messages: en.messages }]);
    await publish([en], template.version + 1);
    expect((await readTemplateLocales(await getDb(), template.id)).map((row) => row.locale)).toEqual(["en"]);
    const stale = await refusal(publish([en], template.version));
    expect(stale).toMatchObject({ code: "CONFLICT", param: "baseVersion" });
  });

  it("refuses a variant's Liquid error and an ill-formed message naming the variant", async () => {
    const { publish } = await studioTemplate();
    const liquid = await refusal(publish([en, { locale: "de", bodyHtml: "{% if %}", messages: en.messages }]));
    expect(liquid.code).toBe("TEMPLATE_RENDER_ERROR");
    const icu = await refusal(
      publish([en, { locale: "de", messages: { ...en.messages, greeting: "{count, plural" } }]),
    );
    expect(icu).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", param: "locales[1].messages" });
  });
});

describe("previewDraft with the studio's locales", () => {
  const draft = {
    ...content,
    variables: { name: "Ada" },
    defaultLocale: "en",
    variants: [en, { locale: "de", subject: "Hallo {{ name }}", messages: { greeting: "Hallo" } }],
  };

  it("renders the variant along the chain, the default's text for a missing key", () => {
    const result = previewDraft({ ...draft, locale: "de-AT" });
    expect(result.usedLocale).toBe("de");
    expect(result.rendered?.subject).toBe("Hallo Ada");
    expect(result.rendered?.bodyHtml).toContain("Hallo, Ada. Bye");
    expect(previewDraft({ ...draft, locale: null }).rendered?.bodyHtml).toContain("Hello, Ada. Bye");
  });

  it("answers every locale's used and missing keys for the translation table", () => {
    expect(previewDraft(draft).translations).toEqual([
      { locale: "en", usedKeys: ["farewell", "greeting"], missingKeys: [], fallsBackForMissingKeys: false },
      { locale: "de", usedKeys: ["farewell", "greeting"], missingKeys: ["farewell"], fallsBackForMissingKeys: false },
    ]);
    expect(previewDraft({ subject: "x", bodyHtml: "y" })).toMatchObject({ usedLocale: null, translations: null });
  });
});
