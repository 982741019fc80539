import { expect, test, type Page } from "@playwright/test";
import { basicAuth, E2E_OWNER } from "../fixtures";
import { switchWorkspace } from "./workspace";
import { docsScreenshot } from "../docs-screenshot";

// Everything this spec writes carries one marker, so other specs' data (and earlier runs) never matter.
const marker = `tpl-editor-${Date.now()}`;
const PREVIEW = "iframe[title='Preview of the HTML body']";

/** Replaces the whole text of a CodeMirror editor, as a user selecting all and typing would. */
async function setEditor(page: Page, label: string, text: string) {
  const editor = page.getByRole("textbox", { name: label, exact: true });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText(text);
  await expect(editor).toContainText(text.split("\n")[0]);
}

/** From the top: the sticky toolbar and sidebar would otherwise be drawn where the page was scrolled to. */
async function screenshot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await docsScreenshot(page, name);
}

async function demoTemplateId(page: Page): Promise<string> {
  const response = await page.request.get("/v1/templates?limit=100", { headers: { Authorization: basicAuth() } });
  expect(response.status()).toBe(200);
  const { data } = (await response.json()) as { data: Array<{ id: string; name?: string }> };
  // The published Template (docs/api.md#resources) has no name: failing that, the demo is the workspace's oldest template (seeded at
  // boot; other specs only add newer ones, and may have edited its subject already).
  const demo = data.find((template) => template.name === "Welcome (demo)") ?? data.at(-1);
  expect(demo, "the seeded Welcome (demo) template").toBeTruthy();
  return demo!.id;
}

test("edit a template with live preview, sample data scenarios, inline errors, save and test sends", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 1000 });
  await switchWorkspace(page, "Demo");
  const id = await demoTemplateId(page);
  await page.goto(`/templates/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Welcome (demo)" })).toBeVisible();
  const versionLine = page.getByTestId("template-version");
  const startVersion = Number((await versionLine.textContent())?.match(/version (\d+)/)?.[1]);
  expect(startVersion).toBeGreaterThanOrEqual(1);
  await expect(page.getByRole("link", { name: "History" })).toHaveAttribute("href", `/templates/${id}/versions`);
  const preview = page.frameLocator(PREVIEW);
  await expect(page.locator(PREVIEW)).toHaveAttribute("sandbox", "");
  // Whatever the template holds now (other specs may have edited the demo), the preview shows it rendered.
  await expect(preview.locator("body")).not.toBeEmpty();

  // Edit the subject and the HTML: the preview follows as you type (with no sample data yet).
  await setEditor(page, "Sample data (JSON)", "{}");
  await setEditor(page, "Subject", `Hi {{ name | default: "friend" }} (${marker})`);
  await setEditor(
    page,
    "HTML body",
    `<h1>Hi {{ name | default: "friend" }} from ${marker}</h1>\n<p>{{ plan }} plan</p>`,
  );
  await expect(preview.getByRole("heading", { level: 1 })).toHaveText(`Hi friend from ${marker}`);
  await expect(page.getByTestId("preview-subject")).toHaveText(`Hi friend (${marker})`);
  await expect(page.getByTestId("dirty-state")).toHaveText("● Unsaved changes");
  await expect(page.getByTestId("missing-variables")).toContainText("plan");

  // Sample data: two scenarios, switched between.
  await setEditor(page, "Sample data (JSON)", '{ "name": "Ada", "plan": "Pro" }');
  await expect(preview.getByRole("heading", { level: 1 })).toHaveText(`Hi Ada from ${marker}`);
  await expect(preview.getByText("Pro plan")).toBeVisible();
  await expect(page.getByTestId("missing-variables")).toHaveCount(0);
  await page.getByLabel("New scenario name").fill(`New customer ${marker}`);
  await page.getByRole("button", { name: "Add scenario" }).click();
  await expect(page.getByTestId("scenario-feedback")).toHaveText(`Saved scenario "New customer ${marker}".`);
  await setEditor(page, "Sample data (JSON)", '{ "name": "Bob", "plan": "Free" }');
  await page.getByLabel("New scenario name").fill(`Free plan ${marker}`);
  await page.getByRole("button", { name: "Add scenario" }).click();
  await expect(page.getByLabel("Scenario", { exact: true }).locator("option:checked")).toHaveText(
    `Free plan ${marker}`,
  );
  await expect(preview.getByText("Free plan")).toBeVisible();
  await page.getByLabel("Scenario", { exact: true }).selectOption({ label: `New customer ${marker}` });
  await expect(page.getByRole("textbox", { name: "Sample data (JSON)" })).toContainText('"Ada"');
  await expect(preview.getByRole("heading", { level: 1 })).toHaveText(`Hi Ada from ${marker}`);

  // Invalid JSON is pointed out (message, line and column, marker in the editor); the preview keeps the last valid data.
  await setEditor(page, "Sample data (JSON)", '{\n  "name": "Eve",\n  "plan" "Pro"\n}');
  await expect(page.getByTestId("sample-data-error")).toContainText("Line 3, column 10");
  await expect(page.getByTestId("sample-data-error")).toContainText('Expected ":"');
  await expect(page.getByText("the preview uses the last valid data")).toBeVisible();
  await expect(page.locator(".cm-editor:has([aria-label='Sample data (JSON)']) .cm-lintRange-error")).toHaveCount(1);
  await expect(preview.getByRole("heading", { level: 1 })).toHaveText(`Hi Ada from ${marker}`);
  await setEditor(page, "Sample data (JSON)", '{ "name": "Ada", "plan": "Pro" }');
  await expect(page.getByTestId("sample-data-error")).toHaveCount(0);

  // A Liquid error shows inline with its line and column, and in the HTML editor; saving it is refused.
  await setEditor(
    page,
    "HTML body",
    `<h1>Hi {{ name | default: "friend" }} from ${marker}</h1>\n{% if plan %}\n<p>{{ plan }} plan</p>`,
  );
  const problem = page.getByTestId("problem");
  await expect(problem).toContainText("HTML body · line 2, column 1");
  await expect(page.locator(".cm-editor:has([aria-label='HTML body']) .cm-lintRange-error")).toHaveCount(1);
  await expect(page.getByText("showing the last version that did")).toBeVisible();
  await screenshot(page, "template-editor-error");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-feedback")).toContainText("line 2, column 1");
  await expect(versionLine).toContainText(`version ${startVersion} `);

  // Fixed, the error goes; Ctrl+S saves as the next version.
  await setEditor(
    page,
    "HTML body",
    `<h1>Hi {{ name | default: "friend" }} from ${marker}</h1>\n{% if plan %}<p>{{ plan }} plan</p>{% endif %}`,
  );
  await expect(problem).toHaveCount(0);
  await expect(preview.getByText("Pro plan")).toBeVisible();
  await page.getByRole("textbox", { name: "HTML body" }).press("ControlOrMeta+s");
  await expect(page.getByTestId("save-feedback")).toHaveText(`Saved as version ${startVersion + 1}.`);
  await expect(page.getByTestId("dirty-state")).toHaveText("All changes saved");
  await expect(versionLine).toContainText(`version ${startVersion + 1} `);
  await expect(versionLine).toContainText(`by ${E2E_OWNER.name}`);

  // Width switch: a 375 px phone, and back to desktop (600 px or more, scaled to fit the column).
  await page.getByRole("button", { name: /Mobile/ }).click();
  await expect(page.locator(PREVIEW)).toHaveAttribute("data-width", "mobile");
  await expect.poll(async () => Math.round((await page.locator(PREVIEW).boundingBox())?.width ?? 0)).toBe(375);
  await page.getByRole("button", { name: "Desktop" }).click();
  await expect(page.locator(PREVIEW)).toHaveAttribute("data-width", "desktop");
  expect(Number(await page.locator(PREVIEW).getAttribute("data-frame-px"))).toBeGreaterThanOrEqual(600);
  await page.getByRole("tab", { name: "Text" }).click();
  await expect(page.getByTestId("preview-text")).toContainText(`Hi Ada from ${marker}`);
  await page.getByRole("tab", { name: "HTML" }).click();
  await screenshot(page, "template-editor");

  // Saved: a reload shows the new content and version.
  await page.reload();
  await expect(page.getByRole("textbox", { name: "HTML body" })).toContainText(marker);
  await expect(versionLine).toContainText(`version ${startVersion + 1} `);

  // Sandbox test: a sandbox message of the draft, opened in a new tab.
  await page.getByLabel("Scenario", { exact: true }).selectOption({ label: `New customer ${marker}` });
  await setEditor(
    page,
    "HTML body",
    `<h1>Hi {{ name | default: "friend" }} from ${marker}</h1>\n<p>Unsaved {{ plan }} draft</p>`,
  );
  const [tab] = await Promise.all([
    page.waitForEvent("popup"),
    page.getByRole("button", { name: "Sandbox test" }).click(),
  ]);
  await tab.waitForURL(/\/emails\/em_/);
  await expect(tab.getByRole("heading", { level: 1 })).toHaveText(`Hi Ada (${marker})`);
  await expect(tab.getByText("sandbox", { exact: true }).first()).toBeVisible();
  await expect(
    tab.frameLocator("iframe[title='HTML body of the message']").getByText("Unsaved Pro draft"),
  ).toBeVisible();
  await tab.close();

  // Send to me: a live message to the signed-in owner, delivered to the local inbox.
  await page.getByRole("button", { name: "Send to me" }).click();
  await expect(page.getByTestId("test-feedback")).toHaveText(`Sent to ${E2E_OWNER.email}. Open the message`);
  // The draft is still unsaved: leaving asks first.
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.type());
    void dialog.accept();
  });
  await page.goto("/inbox");
  expect(dialogs).toEqual(["beforeunload"]);
  const item = page.getByTestId("inbox-item").filter({ hasText: `Hi Ada (${marker})` });
  await expect.poll(async () => (await page.reload(), await item.count()), { timeout: 30_000 }).toBe(1);
  await expect(item).toContainText(`to ${E2E_OWNER.email}`);
  await item.getByRole("link").click();
  await expect(
    page.frameLocator("iframe[title='Message in the local inbox']").getByText("Unsaved Pro draft"),
  ).toBeVisible();
});

test("a save based on a version someone else replaced is refused, and nothing is overwritten", async ({
  page,
  context,
}) => {
  await switchWorkspace(page, "Demo");
  const id = await demoTemplateId(page);
  await page.goto(`/templates/${id}`);
  await expect(page.getByRole("textbox", { name: "HTML body" })).toBeVisible();
  // Someone else (another tab here) saves first.
  const other = await context.newPage();
  await other.goto(`/templates/${id}`);
  await other.getByRole("button", { name: "Save", exact: true }).click();
  await expect(other.getByTestId("save-feedback")).toContainText("Saved as version");

  await setEditor(page, "Text body", `Conflicting ${marker}`);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-feedback")).toContainText("saved by someone else");
  await expect(page.getByTestId("dirty-state")).toHaveText("● Unsaved changes");
  await other.reload();
  await expect(other.getByRole("textbox", { name: "Text body" })).toBeVisible();
  await expect(other.getByRole("textbox", { name: "Text body" })).not.toContainText(marker);
});

test("the editor fits a phone screen", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await switchWorkspace(page, "Demo");
  await page.goto(`/templates/${await demoTemplateId(page)}`);
  await expect(page.locator(PREVIEW)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});

test("another workspace's or an unknown template id is a 404", async ({ page }) => {
  const response = await page.goto("/templates/tpl_0000000000000000");
  expect(response?.status()).toBe(404);
});
