import { expect, test } from "@playwright/test";
import { E2E_OWNER, E2E_OWNER_STATE } from "../fixtures";

// Runs first (the "setup" project): the fresh server has no user, so every page leads to /setup.
test("first run: /setup creates the owner and their workspace, then closes", async ({ page }, testInfo) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole("heading", { name: "Create the first account" })).toBeVisible();
  // A favicon, so no first load logs a 404 for /favicon.ico.
  const icon = await page.locator("link[rel='icon']").first().getAttribute("href");
  expect((await page.request.get(icon!)).headers()["content-type"]).toContain("image/svg+xml");
  await page.screenshot({ path: testInfo.outputPath("setup.png"), fullPage: true });

  // A too-short password is pointed out, and nothing is created.
  await page.getByLabel("Email").fill(E2E_OWNER.email);
  await page.getByLabel("Password").fill("short");
  await page.getByLabel("Password").evaluate((input: HTMLInputElement) => input.removeAttribute("minLength"));
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator("#password-error")).toContainText("8 to");
  await expect(page.getByLabel("Email")).toHaveValue(E2E_OWNER.email);

  await page.getByLabel("Your name").fill(E2E_OWNER.name);
  await page.getByLabel("Password").fill(E2E_OWNER.password);
  await page.getByLabel("Workspace name").fill("Acme");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText(E2E_OWNER.email);

  // The owner sees both their new workspace and the seeded demo.
  const switcher = page.getByLabel("Workspace");
  // "System mail" (sign-in links, invitations) exists from boot without members, so the first owner gets it too.
  await expect(switcher.locator("option")).toHaveText(["Demo", "System mail", "Acme"]);
  // The dashboard opens the workspace just named, not the oldest membership (the seeded demo).
  await expect(switcher.locator("option:checked")).toHaveText("Acme");
  // The other specs start from the oldest workspace, as a session without a choice does.
  await page.context().clearCookies({ name: "pw_workspace" });
  await page.context().storageState({ path: E2E_OWNER_STATE });

  // Setup is closed now.
  const again = await page.request.get("/setup");
  expect(again.status()).toBe(404);
});
