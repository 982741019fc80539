import { expect, type Page } from "@playwright/test";

/**
 * Switches the dashboard to the workspace named `name` through the header's switcher, as a user
 * would, and waits until the server action's cookie is set and the page shows the choice.
 */
export async function switchWorkspace(page: Page, name: string): Promise<void> {
  await page.goto("/");
  const switcher = page.getByLabel("Workspace", { exact: true });
  const id = await switcher.locator("option", { hasText: new RegExp(`^${name}$`) }).getAttribute("value");
  await switcher.selectOption({ label: name });
  await expect
    .poll(async () => (await page.context().cookies()).find((cookie) => cookie.name === "pw_workspace")?.value)
    .toBe(id);
  await page.goto("/");
  await expect(switcher.locator("option:checked")).toHaveText(name);
}
