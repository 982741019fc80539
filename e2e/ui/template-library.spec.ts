import { expect, test, type Page } from "@playwright/test";
import { E2E_OWNER } from "../fixtures";
import { docsScreenshot } from "../docs-screenshot";

// Names carry a marker, so other specs' templates in the shared e2e database never matter. Each test
// makes its own (a failed test restarts the worker, which re-evaluates this module with a new marker).
const marker = `lib${Date.now().toString(36)}`;
const screenshot = (page: Page, name: string) => docsScreenshot(page, name);

test.use({ viewport: { width: 1440, height: 1000 } });

/** Creates a template on /templates/new and returns its id, from the editor URL it lands on. */
async function createTemplate(page: Page, choice: RegExp, name: string): Promise<string> {
  await page.goto("/templates/new");
  await page.getByRole("radio", { name: choice }).check();
  await page.getByLabel("Template name").fill(name);
  await page.getByRole("button", { name: "Create template" }).click();
  await page.waitForURL(/\/templates\/tpl_[0-9A-Za-z]{16}$/);
  return new URL(page.url()).pathname.split("/").pop()!;
}

function row(page: Page, name: string) {
  return page.getByTestId("template-row").filter({ has: page.getByRole("link", { name, exact: true }) });
}

test("create from the receipt starter: the loop renders in the version preview, the list finds it", async ({
  page,
  request,
}) => {
  const receiptName = `Receipt ${marker}`;
  await page.goto("/templates/new");
  await expect(page.getByRole("heading", { level: 1, name: "New template" })).toBeVisible();
  const choices = page.getByTestId("template-choice");
  await expect(choices).toHaveCount(7);
  for (const frame of await page.locator("iframe[title^='Preview of']").all())
    await expect(frame).toHaveAttribute("sandbox", "");
  await expect(
    page.frameLocator("iframe[title='Preview of Receipt']").getByText("Fountain pen × 1", { exact: true }),
  ).toBeVisible();
  await screenshot(page, "template-starters");

  const id = await createTemplate(page, /^Receipt/, receiptName);
  expect((await request.get(`/templates/${id}`)).status()).toBeLessThan(500);
  // The starter's HTML is indented, one element a line, and From is the workspace's verified domain,
  // so the very first "Send to me" goes out.
  const html = page.getByRole("textbox", { name: "HTML body" });
  await expect(html.locator(".cm-line").nth(1)).toHaveText('<html dir="{{ dir }}" lang="{{ locale }}">');
  await expect(page.getByLabel("Default sender (From)")).toHaveValue("Demo <hello@example.com>");
  await page.getByRole("button", { name: "Send to me" }).click();
  await expect(page.getByTestId("test-feedback")).toHaveText(`Sent to ${E2E_OWNER.email}. Open the message`);

  await page.goto(`/templates/${id}/versions`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Versions of ${receiptName}`);
  await expect(page.getByTestId("version-item")).toHaveCount(1);
  await expect(page.getByText("Rendered with the scenario “Sample”.")).toBeVisible();
  await expect(page.getByTestId("version-preview-subject")).toHaveText("Your Acme receipt for order A-1042");
  const preview = page.locator("iframe[title='Preview of version 1']");
  await expect(preview).toHaveAttribute("sandbox", "");
  const frame = page.frameLocator("iframe[title='Preview of version 1']");
  for (const line of ["Notebook, dotted × 2", "Fountain pen × 1", "Ink cartridges (6) × 1", "$57.24"])
    await expect(frame.getByText(line, { exact: true })).toBeVisible();

  // Search: name or subject, any case; the URL carries it.
  await page.goto("/templates");
  await page.getByLabel("Search templates").fill(marker.toUpperCase());
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${marker.toUpperCase()}`));
  await expect(page.getByTestId("template-row")).toHaveCount(1);
  const receipt = row(page, receiptName);
  await expect(receipt).toContainText("Code");
  await expect(receipt).toContainText("v1");
  await expect(receipt.getByTestId("template-editor")).toHaveText(E2E_OWNER.name);
  await expect(receipt.getByTestId("template-used-by")).toHaveText("no workflows");
  await page.goto(`/templates?q=${marker}-nothing`);
  await expect(page.getByText(`No template matches “${marker}-nothing”`)).toBeVisible();
});

test("a blank visual-blocks template is compiled in the browser and renders", async ({ page }) => {
  const id = await createTemplate(page, /^Blank \(visual blocks\)/, `Blocks ${marker}`);
  await page.goto(`/templates/${id}/versions`);
  await expect(
    page.frameLocator("iframe[title='Preview of version 1']").getByText("Write your message here."),
  ).toBeVisible();
  await page.goto(`/templates?q=${encodeURIComponent(`Blocks ${marker}`)}`);
  await expect(row(page, `Blocks ${marker}`)).toContainText("Blocks");
});

test("duplicate, restore v1 as v2 with its diff, then delete the copy", async ({ page }) => {
  const receiptName = `Shop receipt ${marker}`;
  const originalId = await createTemplate(page, /^Receipt/, receiptName);
  await page.goto(`/templates?q=${encodeURIComponent(receiptName)}`);
  const original = row(page, receiptName);
  await original.getByRole("button", { name: `Duplicate ${receiptName}` }).click();
  await page.waitForURL(/\/templates\/tpl_[0-9A-Za-z]{16}$/);
  const copyId = new URL(page.url()).pathname.split("/").pop()!;
  expect(copyId).not.toBe(originalId);

  await page.goto(`/templates?q=${encodeURIComponent(receiptName)}`);
  const copyName = `${receiptName} (copy)`;
  await expect(row(page, copyName)).toContainText("v1");
  await expect(row(page, receiptName)).toHaveCount(1);

  // No editor on this branch: restoring v1 is the save that makes v2.
  await page.goto(`/templates/${copyId}/versions`);
  await page.getByRole("button", { name: "Restore this version" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Restore as v2" }).click();
  await expect(page).toHaveURL(new RegExp(`/templates/${copyId}/versions\\?version=2$`));
  const versions = page.getByTestId("version-item");
  await expect(versions).toHaveCount(2);
  await expect(versions.first()).toHaveAttribute("data-version", "2");
  await expect(versions.first()).toContainText("Current");
  await expect(versions.first()).toContainText("restored from v1");
  await expect(page.getByRole("link", { name: "Compared with the previous version (v1)" })).toHaveAttribute(
    "aria-current",
    "true",
  );
  await expect(page.getByTestId("diff-empty")).toHaveText("No differences: v1 and v2 have the same content.");
  await expect(
    page.frameLocator("iframe[title='Preview of version 2']").getByText("Fountain pen × 1", { exact: true }),
  ).toBeVisible();
  await screenshot(page, "template-versions");

  // v1 against the current version: the same content, and v1 can still be restored.
  await versions.last().getByRole("link").click();
  await expect(page).toHaveURL(/version=1$/);
  await expect(page.getByRole("link", { name: "Compared with the current version (v2)" })).toHaveAttribute(
    "aria-current",
    "true",
  );
  await expect(page.getByTestId("diff-empty")).toBeVisible();

  await page.goto(`/templates?q=${marker}`);
  const copy = row(page, copyName);
  await expect(copy).toContainText("v2");
  await screenshot(page, "templates-list");
  await copy.getByRole("button", { name: "Delete", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete template" }).click();
  await expect(row(page, copyName)).toHaveCount(0);
  await expect(row(page, receiptName)).toHaveCount(1);
  expect((await page.goto(`/templates/${copyId}/versions`))?.status()).toBe(404);
});
