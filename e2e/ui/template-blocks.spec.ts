import { expect, test, type Page } from "@playwright/test";
import { basicAuth } from "../fixtures";
import { switchWorkspace } from "./workspace";
import { docsScreenshot } from "../docs-screenshot";

// Unique per run: other specs share the e2e database.
const name = `Blocks spec ${Date.now()}`;
const variables = { name: "Ada", order: { id: "A-1001" }, customer: { name: "Ada Lovelace", city: "Lisbon" } };

const composer = (page: Page) => page.getByRole("navigation", { name: "Blocks" });
const row = (page: Page, text: string | RegExp) => composer(page).getByTestId("block-row").filter({ hasText: text });

/** The ids of the outline's rows, top to bottom (nested ones included, in email order). */
async function outlineOrder(page: Page): Promise<string[]> {
  return composer(page)
    .getByTestId("block-row")
    .evaluateAll((rows) => rows.map((element) => element.getAttribute("data-block-id") ?? ""));
}

/** Positions of snippets in a rendered HTML, to check the email order. */
function positions(html: string, snippets: string[]): number[] {
  return snippets.map((snippet) => {
    const at = html.indexOf(snippet);
    expect(at, snippet).toBeGreaterThanOrEqual(0);
    return at;
  });
}

/** Replaces the shell's sample data (a CodeMirror editor), as a user selecting all and typing would. */
async function setSampleData(page: Page, data: object) {
  const editor = page.getByRole("textbox", { name: "Sample data (JSON)", exact: true });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText(JSON.stringify(data));
  await expect(editor).toContainText('"A-1001"');
}

test("compose a blocks template: palette, properties, reorder; the preview and the API render agree", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1600, height: 1100 });

  // A blank blocks template, from the library, in the workspace of the API key.
  await switchWorkspace(page, "Demo");
  await page.goto("/templates/new");
  await page.getByTestId("template-choice").filter({ hasText: "Blank (visual blocks)" }).getByRole("radio").check();
  await page.getByLabel("Template name").fill(name);
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page).toHaveURL(/\/templates\/tpl_[A-Za-z0-9]+$/);
  const templateId = new URL(page.url()).pathname.split("/").pop()!;
  await expect(composer(page)).toBeVisible();

  // A heading with Liquid: nothing selected, so it goes at the end of the email.
  await page.getByRole("button", { name: "Add heading" }).click();
  await page.getByLabel("Heading text").fill("Order {{ order.id }} for {{ customer.name }}");
  await page.getByLabel("Heading level").selectOption("h1");
  await page.getByRole("spinbutton", { name: "Padding top" }).fill("32");

  // A button with a Liquid URL, added after the selected heading.
  await page.getByRole("button", { name: "Add button" }).click();
  await page.getByLabel("Button text", { exact: true }).fill("Track {{ order.id }}");
  await page
    .getByLabel("Button URL")
    .fill("https://shop.example/orders/{{ order.id }}?who={{ customer.name | url_encode }}");
  await page.getByLabel("Button color", { exact: true }).fill("#0F766E");
  await page.getByLabel("Full width").check();

  // Columns, with a text in the second column.
  await page.getByRole("button", { name: "Add columns" }).click();
  await page.getByRole("button", { name: "Column 2" }).click();
  await expect(page.getByText("New blocks go into column 2.").first()).toBeVisible();
  await page.getByRole("button", { name: "Add text" }).click();
  await page.getByLabel("Text", { exact: true }).fill("Ships to {{ customer.city }}");
  await page.getByLabel("Text color", { exact: true }).fill("#B91C1C");

  // Layout settings with nothing selected.
  await page.getByRole("button", { name: "Email layout" }).click();
  await page.getByLabel("Canvas color", { exact: true }).fill("#FEFCE8");

  // Reorder: the button above the new heading, then the starter text to the end of the root list.
  expect(await outlineOrder(page)).toEqual([
    "heading",
    "text",
    "button",
    "heading-1",
    "button-1",
    "columns-1",
    "text-1",
  ]);
  await row(page, /^Button: Track/)
    .getByRole("button", { name: /^Move up/ })
    .click();
  await row(page, /^Text: Write your message/)
    .getByRole("button", { name: /^Move down/ })
    .click();
  expect(await outlineOrder(page)).toEqual([
    "heading",
    "button",
    "text",
    "button-1",
    "heading-1",
    "columns-1",
    "text-1",
  ]);
  // Duplicate and delete: the starter button goes, a copy of it comes and goes.
  await row(page, /^Button: Open/)
    .getByRole("button", { name: /^Duplicate/ })
    .click();
  await expect(row(page, /^Button: Open/)).toHaveCount(2);
  await row(page, /^Button: Open/)
    .first()
    .getByRole("button", { name: /^Delete/ })
    .click();
  await row(page, /^Button: Open/)
    .first()
    .getByRole("button", { name: /^Delete/ })
    .click();
  expect(await outlineOrder(page)).toEqual(["heading", "text", "button-1", "heading-1", "columns-1", "text-1"]);

  // The shell's live preview renders the compiled blocks with the sample data.
  await setSampleData(page, variables);
  const preview = page.frameLocator("iframe[title='Preview of the HTML body']");
  await expect(preview.getByText("Order A-1001 for Ada Lovelace")).toBeVisible();
  await expect(preview.getByRole("link", { name: "Track A-1001" })).toHaveAttribute(
    "href",
    "https://shop.example/orders/A-1001?who=Ada+Lovelace",
  );
  await expect(preview.getByText("Ships to Lisbon")).toBeVisible();
  await expect(preview.locator("h1")).toHaveText("Order A-1001 for Ada Lovelace");
  await expect(preview.getByText("Hello Ada")).toBeVisible();
  // The button selected, to show its properties next to the preview.
  await row(page, /^Button: Track/)
    .getByRole("button", { name: /^Button: Track/ })
    .click();
  await expect(page.getByLabel("Button URL")).toHaveValue(
    "https://shop.example/orders/{{ order.id }}?who={{ customer.name | url_encode }}",
  );
  // From the top: the sticky toolbar would otherwise be drawn where the page was scrolled to.
  await page.evaluate(() => window.scrollTo(0, 0));
  await docsScreenshot(page, "template-blocks");

  const previewHtml = await page.locator("iframe[title='Preview of the HTML body']").getAttribute("srcdoc");

  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-feedback")).toHaveText(/^Saved as version \d+\.$/);

  // Preview = send: the API renders the saved template to the same values, in the same order.
  const response = await request.post(`/v1/templates/${templateId}/render`, {
    headers: { Authorization: basicAuth() },
    data: { variables },
  });
  expect(response.status(), await response.text()).toBe(200);
  const { bodyHtml } = ((await response.json()) as { data: { bodyHtml: string } }).data;
  expect(bodyHtml).toBe(previewHtml);
  expect(bodyHtml).toContain('href="https://shop.example/orders/A-1001?who=Ada+Lovelace"');
  expect(bodyHtml).toContain("background-color:#0F766E");
  expect(bodyHtml).toContain("background-color:#FEFCE8");
  expect(bodyHtml).not.toContain("Open</a>");
  const [track, heading, city] = positions(bodyHtml, [
    "Track A-1001",
    "Order A-1001 for Ada Lovelace</h1>",
    "Ships to Lisbon",
  ]);
  expect(track).toBeLessThan(heading);
  expect(heading).toBeLessThan(city);
});
