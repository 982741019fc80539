import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { basicAuth } from "../fixtures";
import { switchWorkspace } from "./workspace";
import { docsScreenshot } from "../docs-screenshot";

// Everything this spec writes carries one marker (its own template), so other specs' data never matters.
const marker = `tpl-locales-${Date.now()}`;
const auth = { Authorization: basicAuth() };
const BODY = '<h1>{% t "greeting" %}, {{ name }}</h1>\n<p>{% t "thanks" %}</p>';

/** Replaces the whole text of a CodeMirror editor, as a user selecting all and typing would. */
async function setEditor(page: Page, label: string, text: string) {
  const editor = page.getByRole("textbox", { name: label, exact: true });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText(text);
  await expect(editor).toContainText(text.split("\n")[0]);
}

/** A template whose body uses two keys, with its default (en) table. */
async function localisedTemplate(request: APIRequestContext): Promise<string> {
  const created = await request.post("/v1/templates", {
    headers: auth,
    data: { name: `Locales ${marker}`, subject: "Order {{ order }}", bodyHtml: BODY },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = ((await created.json()) as { data: { id: string } }).data;
  const en = await request.put(`/v1/templates/${id}/locales/en`, {
    headers: auth,
    data: { messages: { greeting: "Hello", thanks: "Thanks for your order" } },
  });
  expect(en.status(), await en.text()).toBe(200);
  return id;
}

const cell = (page: Page, locale: string, key: string) =>
  page.locator(`[data-testid='translation-cell'][data-locale='${locale}'][data-key='${key}']`);

test("locales in the studio: add one, translate in the table, preview beside the default, publish linted", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1600, height: 1100 });
  const id = await localisedTemplate(request);
  await switchWorkspace(page, "Demo");
  await page.goto(`/templates/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: `Locales ${marker}` })).toBeVisible();
  const versionLine = page.getByTestId("template-version");
  await expect(versionLine).toContainText("version 2 ");
  await setEditor(page, "Sample data (JSON)", '{ "name": "Ada", "order": "A-1" }');
  await expect(page.getByLabel("greeting in en")).toHaveValue("Hello");

  // Add a locale: a copy of the default's content, its table empty (every used key missing, highlighted).
  await page.getByRole("button", { name: "Add a locale" }).click();
  await page.getByLabel("Language tag").fill("DE");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  const deTab = page.getByRole("tab", { name: /^de/ });
  await expect(deTab).toHaveAttribute("aria-selected", "true");
  await expect(deTab).toContainText("2 missing");
  await expect(page.getByRole("textbox", { name: "Subject", exact: true })).toContainText("Order {{ order }}");
  await expect(cell(page, "de", "greeting")).toHaveAttribute("data-missing", "true");
  await expect(cell(page, "de", "thanks")).toHaveAttribute("data-missing", "true");

  // Translate a key in the table and the subject in the editor: the de preview beside the en one follows.
  await page.getByLabel("greeting in de").fill("Hallo");
  await expect(cell(page, "de", "greeting")).not.toHaveAttribute("data-missing");
  await expect(deTab).toContainText("1 missing");
  await setEditor(page, "Subject", "Bestellung {{ order }}");
  const variant = page.getByTestId("preview-variant");
  const byDefault = page.getByTestId("preview-default");
  await expect(
    page.frameLocator("iframe[title='Preview of the HTML body in de']").getByRole("heading", { level: 1 }),
  ).toHaveText("Hallo, Ada");
  await expect(
    page.frameLocator("iframe[title='Preview of the HTML body in en']").getByRole("heading", { level: 1 }),
  ).toHaveText("Hello, Ada");
  await expect(variant.getByTestId("preview-subject")).toHaveText("Bestellung A-1");
  await expect(byDefault.getByTestId("preview-subject")).toHaveText("Order A-1");
  const [variantBox, defaultBox] = [await variant.boundingBox(), await byDefault.boundingBox()];
  expect(defaultBox!.x, "the default's preview beside the variant's").toBeGreaterThan(variantBox!.x + 100);
  await docsScreenshot(page, "template-studio-locales");

  // Publishing with "thanks" missing in de is refused, naming the locale and the key; nothing is saved.
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-feedback")).toContainText('de lacks "thanks"');
  await expect(versionLine).toContainText("version 2 ");
  await expect(page.getByTestId("dirty-state")).toHaveText("● Unsaved changes");

  // Marked "falls back for missing keys", it publishes (the default's text is sent for "thanks").
  const fallsBack = page.getByRole("columnheader", { name: /^de/ }).getByLabel("Falls back for missing keys");
  await fallsBack.check();
  await expect(cell(page, "de", "thanks")).toHaveAttribute("data-missing", "falls-back");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-feedback")).toHaveText("Saved as version 3.");

  // Or translated: unmarked, the missing key refuses again until its cell is filled.
  await fallsBack.uncheck();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-feedback")).toContainText('de lacks "thanks"');
  await page.getByLabel("thanks in de").fill("Danke für Ihre Bestellung");
  await expect(cell(page, "de", "thanks")).not.toHaveAttribute("data-missing");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-feedback")).toHaveText("Saved as version 4.");
  await expect(page.getByTestId("dirty-state")).toHaveText("All changes saved");

  // The API sees what the studio published, and the reloaded studio shows it again.
  const de = await request.get(`/v1/templates/${id}/locales/de`, { headers: auth });
  expect(de.status()).toBe(200);
  expect((await de.json()).data).toMatchObject({
    locale: "de",
    templateVersion: 4,
    subject: "Bestellung {{ order }}",
    messages: { greeting: "Hallo", thanks: "Danke für Ihre Bestellung" },
    fallsBackForMissingKeys: false,
    missingKeys: [],
  });
  await page.reload();
  await expect(page.getByLabel("thanks in de")).toHaveValue("Danke für Ihre Bestellung");
});

test("the studio's locales on a phone, in the dark: nothing scrolls sideways but the table's own frame", async ({
  page,
  request,
}) => {
  const id = await localisedTemplate(request);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: "dark" });
  await switchWorkspace(page, "Demo");
  await page.goto(`/templates/${id}`);
  await page.getByRole("button", { name: "Add a locale" }).click();
  await page.getByLabel("Language tag").fill("pt-BR");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByRole("tab", { name: /^pt-BR/ })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("preview-variant")).toBeVisible();
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(sideways).toBeLessThanOrEqual(0);
  // A missing cell stays readable on the dark surface: a dark field, its text in contrast (WCAG formulas).
  const field = page.getByLabel("greeting in pt-BR");
  await field.fill("Olá");
  const { background, contrast } = await field.evaluate((element) => {
    const canvas = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
    const luminance = (css: string) => {
      canvas.clearRect(0, 0, 1, 1);
      canvas.fillStyle = css;
      canvas.fillRect(0, 0, 1, 1);
      const [r, g, b] = [...canvas.getImageData(0, 0, 1, 1).data].map((c) => {
        const s = c / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const style = getComputedStyle(element);
    const [text, under] = [luminance(style.color), luminance(style.backgroundColor)];
    return { background: under, contrast: (Math.max(text, under) + 0.05) / (Math.min(text, under) + 0.05) };
  });
  expect(background, "the cell's field in dark mode").toBeLessThan(0.05);
  expect(contrast, "the cell's text against its field").toBeGreaterThanOrEqual(7);
});

test("blocks mode: each locale's block texts are its own, previewed beside the default's", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1600, height: 1100 });
  await switchWorkspace(page, "Demo");
  await page.goto("/templates/new");
  await page.getByTestId("template-choice").filter({ hasText: "Blank (visual blocks)" }).getByRole("radio").check();
  await page.getByLabel("Template name").fill(`Blocks locales ${marker}`);
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page).toHaveURL(/\/templates\/tpl_[A-Za-z0-9]+$/);
  const id = new URL(page.url()).pathname.split("/").pop()!;
  const heading = () =>
    page.getByRole("navigation", { name: "Blocks" }).getByTestId("block-row").filter({ hasText: "Welcome aboard" });
  await page.getByRole("button", { name: "Add heading" }).click();
  await page.getByLabel("Heading text").fill("Welcome aboard");
  await expect(heading()).toHaveCount(1);

  // The copy's composer edits de's own document: the en preview keeps the default's text.
  await page.getByRole("button", { name: "Add a locale" }).click();
  await page.getByLabel("Language tag").fill("de");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByRole("tab", { name: /^de/ })).toHaveAttribute("aria-selected", "true");
  await heading().locator("button").first().click();
  await page.getByLabel("Heading text").fill("Willkommen an Bord");
  await expect(
    page.frameLocator("iframe[title='Preview of the HTML body in de']").getByText("Willkommen an Bord"),
  ).toBeVisible();
  const en = page.frameLocator("iframe[title='Preview of the HTML body in en']");
  await expect(en.getByText("Welcome aboard")).toBeVisible();
  await expect(en.getByText("Willkommen an Bord")).toHaveCount(0);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-feedback")).toHaveText(/^Saved as version \d+\.$/);

  // Published: de's document and the HTML it compiled to; en's composer still holds the default's text.
  const de = await request.get(`/v1/templates/${id}/locales/de`, { headers: auth });
  expect(de.status()).toBe(200);
  const variant = (await de.json()).data as { bodyHtml: string; blocks: unknown };
  expect(variant.bodyHtml).toContain("Willkommen an Bord");
  expect(JSON.stringify(variant.blocks)).toContain("Willkommen an Bord");
  await page.getByRole("tab", { name: /^en/ }).click();
  await expect(heading()).toHaveCount(1);
});
