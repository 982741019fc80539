import { expect, test, type Page } from "@playwright/test";

// The Providers page (docs/delivery.md#routing-and-failover): an owner adds a connection and a rule, dry-runs a
// message, sees refusals in words, and cleans up. Nothing is sent: the relay on 127.0.0.1:2599 is only named
// (playwright.config.ts sets PROVIDERS_ALLOW_PRIVATE so a loopback host is allowed).

test.use({ viewport: { width: 1440, height: 900 } });

const suffix = Date.now().toString(36);
const relay = `relay-${suffix}`;
const password = `pw-${suffix}-never-shown`;
const ruleName = `Microsoft via ${relay}`;

const connectionRow = (page: Page, name: string) => page.locator(`[data-testid="connection"][data-name="${name}"]`);
const ruleRow = (page: Page) => page.locator(`[data-testid="routing-rule"][data-name="${ruleName}"]`);

/** Delete (in the row), then confirm in the dialog. */
async function deleteIn(page: Page, row: ReturnType<Page["locator"]>, title: string) {
  await row.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog", { name: title }).getByRole("button", { name: "Delete" }).click();
}

/** A bad name first: the use case's refusal beside the field it names, what was typed kept (never the password). */
async function addConnection(page: Page) {
  const form = page.getByTestId("connection-form");
  await form.getByLabel("Name", { exact: true }).fill("Bad Name");
  await form.getByLabel("Kind").selectOption("smtp");
  await form.getByLabel("URL", { exact: true }).fill("smtp://127.0.0.1:2599");
  await form.getByLabel("User (optional)").fill("relay-user");
  await form.getByLabel("Password (optional)").fill(password);
  await form.getByRole("button", { name: "Add connection" }).click();
  await expect(form.getByRole("alert")).toContainText("Invalid name: must be 1–40 lower-case letters");
  await expect(form.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("URL", { exact: true })).toHaveValue("smtp://127.0.0.1:2599");
  await expect(form.getByLabel("Password (optional)")).toHaveValue("");

  await form.getByLabel("Name", { exact: true }).fill(relay);
  await form.getByLabel("Password (optional)").fill(password);
  await form.getByRole("button", { name: "Add connection" }).click();
  await expect(form.getByRole("status")).toHaveText(`Added ${relay}.`);
}

/** Listed with its settings, "password set", a closed circuit, and never the password itself. */
async function expectConnectionListed(page: Page) {
  const row = connectionRow(page, relay);
  await expect(row).toContainText("smtp://127.0.0.1:2599");
  await expect(row).toContainText("relay-user");
  await expect(row.getByTestId("secrets-set")).toHaveText("password set");
  await expect(row.getByTestId("circuit-state")).toHaveAttribute("data-state", "closed");
  await expect(row).toContainText("no limits");
  await page.reload();
  await expect(connectionRow(page, relay)).toBeVisible();
  expect(await page.content()).not.toContain(password);
}

/** Microsoft mailboxes through the relay, then default. */
async function addRule(page: Page) {
  const form = page.getByTestId("rule-form");
  await form.getByLabel("Name (optional)").fill(ruleName);
  await form.getByRole("checkbox", { name: /^microsoft/ }).check();
  await form.getByLabel("Connections").fill(`${relay}, default`);
  await form.getByRole("button", { name: "Add rule" }).click();
  await expect(form.getByRole("status")).toContainText(`Added ${ruleName}`);
  await expect(ruleRow(page)).toContainText("Messages whose recipients' mailboxes are all at Microsoft");
  await expect(ruleRow(page).getByTestId("rule-chain")).toHaveText(`${relay} → default`);
}

/** The rule, then the relay as primary and default as fallback, with their circuits. */
async function dryRunOutlook(page: Page) {
  const form = page.getByTestId("dry-run-form");
  await form.getByLabel("From").fill("Demo <hello@example.com>");
  await form.getByLabel("To").fill("someone@outlook.com");
  await form.getByRole("button", { name: "Dry run" }).click();
  const result = page.getByTestId("dry-run-result");
  await expect(result.getByTestId("dry-run-summary")).toHaveText(`Rule ${ruleName}: ${relay}, then default.`);
  const hops = result.getByTestId("dry-run-connection");
  await expect(hops).toHaveCount(2);
  await expect(hops.nth(0)).toContainText(relay);
  await expect(hops.nth(0)).toContainText("primary");
  await expect(hops.nth(0)).toContainText("circuit closed");
  await expect(hops.nth(1)).toContainText("default");
  await expect(hops.nth(1)).toContainText("fallback");
  await expect(result).toContainText("recipients at outlook.com (Microsoft)");
  await expect(form.getByLabel("To")).toHaveValue("someone@outlook.com");
}

test("providers: a connection, a rule, a dry run, refusals in words, and deletes", async ({ page }) => {
  await page.goto("/providers");
  await expect(page.getByRole("heading", { level: 1, name: "Providers" })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Sections" });
  await expect(nav.getByRole("link", { name: "Providers" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("connection").first()).toHaveAttribute("data-name", "default");
  await expect(connectionRow(page, "default")).toContainText("The instance's provider (its env settings)");

  await addConnection(page);
  await expectConnectionListed(page);
  await addRule(page);
  await dryRunOutlook(page);

  // Deleting the connection while the rule names it: the conflict, in words, beside it.
  await deleteIn(page, connectionRow(page, relay), `Delete the connection ${relay}?`);
  await expect(connectionRow(page, relay).getByTestId("delete-error")).toContainText(
    `Routing rules still name ${relay} (${ruleName}): change or delete them first.`,
  );

  // Clean up for the specs after this one: the rule, then the connection.
  await deleteIn(page, ruleRow(page), `Delete the rule ${ruleName}?`);
  await expect(ruleRow(page)).toHaveCount(0);
  await deleteIn(page, connectionRow(page, relay), `Delete the connection ${relay}?`);
  await expect(connectionRow(page, relay)).toHaveCount(0);
});
