import { describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import { parseEmailListSearch } from "./email-list-search";
import { listDashboardMessages } from "./list-dashboard-messages";

/** The Emails page's tag filter: repeated `tag` in its URL, every one must match; rows carry their tags for chips. */
describe("the dashboard's tag filter", () => {
  it("reads every tag of the URL (blanks dropped), lists the messages holding all of them with their tags", async () => {
    const ws = await createTestWorkspace();
    const send = async (tags: string[]) =>
      (
        await callApi("/v1/sandbox/email_messages", {
          authorization: ws.authorization,
          body: { from: "hello@example.com", to: "ada@example.org", subject: "Hi", bodyHtml: "<p>Hi</p>", tags },
        })
      ).json.data.id as string;
    const both = await send(["plan:pro", "region:eu"]);
    await send(["plan:pro"]);
    await send([]);

    const search = new URLSearchParams([
      ["tag", "plan:pro"],
      ["tag", " region:eu "],
      ["tag", ""],
      ["mode", "sandbox"],
    ]);
    const parsed = parseEmailListSearch(search);
    expect(parsed.ok && parsed.query.tags).toEqual(["plan:pro", "region:eu"]);
    const result = parsed.ok ? await listDashboardMessages(ws.workspace.id, parsed.query) : parsed;
    expect(result.ok && result.page.rows.map((row) => [row.id, row.tags])).toEqual([[both, ["plan:pro", "region:eu"]]]);

    const one = parseEmailListSearch(new URLSearchParams("tag=plan:pro"));
    const page = one.ok ? await listDashboardMessages(ws.workspace.id, one.query) : one;
    expect(page.ok && page.page.rows).toHaveLength(2);
  });

  it("a tag off the grammar comes back as the form's Tag field", () => {
    const parsed = parseEmailListSearch(
      new URLSearchParams([
        ["tag", "plan:pro"],
        ["tag", "no colon"],
      ]),
    );
    expect(parsed).toMatchObject({ ok: false, param: "tag" });
    expect(!parsed.ok && parsed.message).toMatch(/must be "name:value"/);
  });
});
