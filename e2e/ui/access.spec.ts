import { expect, test, type Browser, type Page } from "@playwright/test";
import { basicAuth, E2E_OWNER } from "../fixtures";
import { switchWorkspace } from "./workspace";
import { docsScreenshot } from "../docs-screenshot";

/**
 * Access: password sign-in and sign-out, sign-in links read in the System mail workspace, the
 * workspace switcher, and an invited Member who can see but not change anything. The owner's page
 * starts (and is left) on the Demo workspace.
 */
const unique = () => Math.random().toString(36).slice(2, 10);

/** The link in the newest System mail whose subject contains `subject`, read as the owner would: overview → message → text part. */
async function readSystemMailLink(page: Page, subject: string): Promise<string> {
  await switchWorkspace(page, "System mail");
  await page.getByRole("link", { name: subject }).first().click();
  const text = await page.locator("#text").innerText();
  const link = text.match(/https?:\/\/\S+/)?.[0];
  expect(link, text).toBeTruthy();
  await switchWorkspace(page, "Demo");
  return link!;
}

async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  return context.newPage();
}

test("sign out, a wrong password is refused, and the right one signs back in", async ({ browser }) => {
  const page = await freshPage(browser);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/login");
  await page.getByLabel("Email", { exact: true }).fill(E2E_OWNER.email);
  await page.getByLabel("Password", { exact: true }).fill(E2E_OWNER.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText(E2E_OWNER.email);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login$/);
  await docsScreenshot(page, "login");

  await page.getByLabel("Email", { exact: true }).fill(E2E_OWNER.email);
  await page.getByLabel("Password", { exact: true }).fill("not-the-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("Wrong email or password.")).toBeVisible();
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(E2E_OWNER.email);

  await page.getByLabel("Password", { exact: true }).fill(E2E_OWNER.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText(E2E_OWNER.email);
  await page.context().close();
});

test("a sign-in link: same answer for a stranger, the owner's link arrives as System mail and signs in", async ({
  browser,
  page,
}) => {
  const visitor = await freshPage(browser);
  await visitor.goto("/login");
  await visitor.getByLabel("Email for a sign-in link").fill(`nobody-${unique()}@e2e.test`);
  await visitor.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(visitor.getByRole("heading", { name: "Check your inbox" })).toBeVisible();

  await visitor.goto("/login");
  await visitor.getByLabel("Email for a sign-in link").fill(E2E_OWNER.email);
  await visitor.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(visitor.getByRole("heading", { name: "Check your inbox" })).toBeVisible();

  const link = await readSystemMailLink(page, "Your Postwerk sign-in link");
  expect(link).toContain("/api/auth/callback/magic-link");
  await visitor.goto(link);
  await expect(visitor.getByTestId("signed-in-as")).toHaveText(E2E_OWNER.email);

  // Used once: the same link again is refused.
  const second = await freshPage(browser);
  await second.goto(link);
  await expect(second.locator("#login-error")).toContainText("expired or was already used");
  await visitor.context().close();
  await second.context().close();
});

test("switching workspace: the header and the pages follow the selection", async ({ page }) => {
  await switchWorkspace(page, "Acme");
  await page.goto("/settings");
  await expect(page.getByText("Settings of Acme.")).toBeVisible();
  await switchWorkspace(page, "Demo");
  await page.goto("/settings");
  await expect(page.getByText("Settings of Demo.")).toBeVisible();
});

test("an invited Member joins Acme, sees settings without controls, cannot act as admin, and never sees Demo", async ({
  browser,
  page,
}) => {
  const email = `member-${unique()}@e2e.test`;
  await page.setViewportSize({ width: 1440, height: 900 });
  await switchWorkspace(page, "Acme");
  await page.goto("/settings");
  await page.getByLabel("Email to invite").fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption("MEMBER");
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible();
  // With the local provider the mail stays in the System mail inbox: the notice says so and offers the link.
  await expect(page.getByText(`Invitation sent to ${email}`)).toContainText("in the System mail workspace's inbox");
  await expect(page.getByRole("button", { name: "Copy invitation link" })).toBeVisible();
  const shown = await page.getByTestId("invitation-link").textContent();
  await expect(page.getByTestId("invitation-row").filter({ hasText: email })).toBeVisible();
  await docsScreenshot(page, "settings");

  const link = await readSystemMailLink(page, "invited you to Acme");
  expect(shown).toBe(link);
  const member = await freshPage(browser);
  await member.goto(link);
  await expect(member.getByRole("heading", { name: "Join a workspace" })).toBeVisible();
  await member.getByLabel("Your name").fill("Max Member");
  await member.getByLabel("Password", { exact: true }).fill("member-password-e2e");
  await member.getByRole("button", { name: "Create account and join" }).click();
  await expect(member.getByTestId("signed-in-as")).toHaveText(email);
  await expect(member.getByLabel("Workspace", { exact: true }).locator("option")).toHaveText(["Acme"]);

  await member.goto("/settings");
  await expect(member.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  await expect(member.getByTestId("member-row").filter({ hasText: email })).toContainText("Member");
  await expect(member.getByRole("button", { name: /Save|Send invitation|Change|Remove|Revoke/ })).toHaveCount(0);
  await expect(member.getByLabel("Email to invite")).toHaveCount(0);

  // A message of Demo, by its id in the URL, is not found for a member of Acme only.
  const sent = await member.request.post("/api/v1/email_messages", {
    headers: { Authorization: basicAuth() },
    data: {
      from: "Demo <hello@example.com>",
      to: "ada@example.org",
      subject: `Demo only ${unique()}`,
      bodyHtml: "<p>Demo</p>",
    },
  });
  expect(sent.status()).toBe(201);
  const { data } = (await sent.json()) as { data: { id: string } };
  const foreign = await member.goto(`/emails/${data.id}`);
  expect(foreign?.status()).toBe(404);
  await expect(member.getByText("Demo only")).toHaveCount(0);

  // The used link is closed.
  await member.goto(link);
  await expect(member.getByRole("heading", { name: "Invitation already used" })).toBeVisible();
  await member.context().close();
  await switchWorkspace(page, "Demo");
});
