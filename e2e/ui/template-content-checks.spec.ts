import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { basicAuth } from "../fixtures";
import { switchWorkspace } from "./workspace";

// Everything this spec writes carries one marker (its own template), so other specs' data never matters.
const marker = `tpl-checks-${Date.now()}`;
const auth = { Authorization: basicAuth() };
const LONG_SUBJECT = "Your order has shipped and is on its way: follow the parcel until it reaches your door";
const RISKY_HTML = [
  "<h1>Your order has shipped</h1>",
  '<img src="https://example.com/a.png">',
  '<p><a href="http://example.com/x">x</a></p>',
  '<p>Sign in at <a href="https://evil.example/login">www.bank.example</a></p>',
  '<p><a href="https://bit.ly/abc">Track it</a></p>',
].join("\n");
const BENIGN_HTML = [
  "<h1>Your order has shipped</h1>",
  '<img src="https://example.com/a.png" alt="Your parcel">',
  '<p><a href="https://example.com/x">Track it</a></p>',
].join("\n");

/** Replaces the whole text of a CodeMirror editor, as a user selecting all and typing would. */
async function setEditor(page: Page, label: string, text: string) {
  const editor = page.getByRole("textbox", { name: label, exact: true });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText(text);
  await expect(editor).toContainText(text.split("\n")[0]);
}

async function riskyTemplate(request: APIRequestContext): Promise<string> {
  expect(LONG_SUBJECT.length).toBeGreaterThan(70);
  const created = await request.post("/v1/templates", {
    headers: auth,
    data: { name: `Checks ${marker}`, subject: LONG_SUBJECT, bodyHtml: RISKY_HTML },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { data: { id: string } }).data.id;
}

const rows = (panel: Locator) => panel.getByTestId("content-finding");
const row = (panel: Locator, rule: string) => panel.locator(`[data-testid='content-finding'][data-rule='${rule}']`);

/** Each rule RISKY_HTML and LONG_SUBJECT trip, with its severity; the error first. */
async function expectRiskyFindings(panel: Locator) {
  for (const [rule, severity] of [
    ["link_text_mismatch", "error"],
    ["image_alt", "warning"],
    ["insecure_link", "warning"],
    ["shortener", "warning"],
    ["subject_length", "warning"],
  ] as const) {
    await expect(row(panel, rule), rule).toHaveCount(1);
    await expect(row(panel, rule)).toHaveAttribute("data-severity", severity);
  }
  await expect(rows(panel).first()).toHaveAttribute("data-rule", "link_text_mismatch");
  await expect(row(panel, "link_text_mismatch")).toContainText("bank.example");
  await expect(row(panel, "link_text_mismatch")).toContainText("evil.example");
}

async function expectFitsPhone(page: Page, panel: Locator) {
  await page.setViewportSize({ width: 390, height: 844 });
  await panel.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  const box = (await panel.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1440, height: 1000 });
}

test("content checks in the studio: on demand, against the unsaved draft, and after each save", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 1000 });
  const id = await riskyTemplate(request);
  await switchWorkspace(page, "Demo");
  await page.goto(`/templates/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: `Checks ${marker}` })).toBeVisible();
  const panel = page.getByTestId("content-checks");
  const status = panel.getByTestId("content-checks-status");
  await expect(status).toHaveAttribute("data-status", "none");
  await expect(rows(panel)).toHaveCount(0);

  // The stored draft trips the rules: the phishing-like link is an error, listed first.
  await panel.getByTestId("check-content").click();
  await expect(status).toHaveAttribute("data-status", "error");
  await expect(status).toContainText("error");
  await expectRiskyFindings(panel);

  // On a phone the findings wrap: nothing scrolls sideways.
  await expectFitsPhone(page, panel);

  // A draft that does not render has nothing to check: the preview says why.
  await setEditor(page, "HTML body", "<p>{% if %}</p>");
  await expect(page.getByTestId("preview-problems")).toBeVisible();
  await panel.getByTestId("check-content").click();
  await expect(status).toHaveAttribute("data-status", "not_rendered");
  await expect(status).toContainText("The draft does not render: see the preview's problems.");
  await expect(rows(panel)).toHaveCount(0);

  // Fixed in the editor (unsaved): only notes remain.
  await setEditor(page, "HTML body", BENIGN_HTML);
  await setEditor(page, "Subject", "Your order has shipped");
  await expect(status).toContainText("The draft has changed since");
  await panel.getByTestId("check-content").click();
  await expect(status).toHaveAttribute("data-status", "pass");
  await expect(rows(panel).first()).toBeVisible();
  await expect(panel.locator("[data-testid='content-finding'][data-severity='error']")).toHaveCount(0);
  await expect(panel.locator("[data-testid='content-finding'][data-severity='warning']")).toHaveCount(0);
  for (const rule of ["link_text_mismatch", "image_alt", "insecure_link", "shortener", "subject_length"])
    await expect(row(panel, rule), rule).toHaveCount(0);

  // Saved, then opened afresh: nothing checked yet.
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-feedback")).toHaveText(/^Saved as version \d+\.$/);
  await expect(page.getByTestId("dirty-state")).toHaveText("All changes saved");
  await page.reload();
  await expect(status).toHaveAttribute("data-status", "none");
  await expect(rows(panel)).toHaveCount(0);

  // A small edit, saved: the checks run on their own, on what was saved.
  await setEditor(page, "HTML body", `${BENIGN_HTML}\n<p><a href="https://bit.ly/abc">Short link</a></p>`);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-feedback")).toHaveText(/^Saved as version \d+\.$/);
  await expect(status).toHaveAttribute("data-status", "warning");
  await expect(row(panel, "shortener")).toHaveAttribute("data-severity", "warning");
  await expect(panel.locator("[data-testid='content-finding'][data-severity='error']")).toHaveCount(0);
});
