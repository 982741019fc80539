import { expect, test, type APIRequestContext } from "@playwright/test";
import { basicAuth } from "../fixtures";

// Every tag here carries this run's marker, so other specs' messages never match.
const marker = `e2e${Date.now()}`;
const pro = `plan:pro-${marker}`;
const eu = `region:eu-${marker}`;

async function send(request: APIRequestContext, subject: string, tags: string[]): Promise<string> {
  const response = await request.post("/api/v1/sandbox/email_messages", {
    headers: { Authorization: basicAuth() },
    data: { from: "Demo <hello@example.com>", to: "reader@example.org", subject, bodyHtml: "<p>Hi</p>", tags },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

test("tags: chips in the list and on the message, the Tags filter adds and drops tags (all must match)", async ({
  page,
  request,
}) => {
  await send(request, `Tags ${marker} pro`, [pro]);
  const both = await send(request, `Tags ${marker} pro+eu`, [pro, eu]);
  const rows = page.getByTestId("email-row");

  await page.goto("/emails");
  await page.getByRole("textbox", { name: "Tags" }).fill(pro);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).getByTestId("tag-chips")).toContainText(eu);

  // The tag in force is a checked chip; one more narrows to messages with both.
  await expect(page.getByRole("checkbox", { name: `Filter by ${pro}` })).toBeChecked();
  await page.getByRole("textbox", { name: "Tags" }).fill(eu);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toHaveAttribute("data-id", both);

  // Unchecking a chip drops it.
  await page.getByRole("checkbox", { name: `Filter by ${pro}` }).uncheck();
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(rows).toHaveCount(1);
  await expect(page).not.toHaveURL(new RegExp(encodeURIComponent(pro)));

  // The message page shows its tags; a chip opens the list filtered by it.
  await page.goto(`/emails/${both}`);
  const chips = page.getByTestId("tag-chips");
  await expect(chips).toContainText(pro);
  await chips.getByRole("link", { name: pro }).click();
  await expect(rows).toHaveCount(2);

  // A tag off the grammar is named beside the field.
  await page.goto(`/emails?tag=${encodeURIComponent("no colon")}`);
  await expect(page.getByTestId("filter-error")).toContainText('must be "name:value"');
});
