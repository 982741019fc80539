import { arrayContains, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";

/** Tags (docs/api.md#tags): accepted on every way in, stored, answered, and filtered with ?tag=. */
const rowsOf = <T>(result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];

const raw = {
  from: "Acme <hello@example.com>",
  to: "ada@example.org",
  subject: "Your receipt",
  bodyHtml: "<p>Thanks</p>",
};

async function storedTags(id: string) {
  const [row] = await (await getDb()).select().from(emailMessages).where(eq(emailMessages.id, id));
  return row.tags;
}

describe("tags on a send", () => {
  it("live and sandbox: stored and answered as given, exact duplicates once; [] when none", async () => {
    const ws = await createTestWorkspace();
    for (const path of ["/v1/email_messages", "/v1/sandbox/email_messages"]) {
      const tags = ["plan:pro", "campaign:spring 2026: week 1", "plan:pro", "Plan:pro"];
      const res = await callApi(path, { authorization: ws.authorization, body: { ...raw, tags } });
      expect(res.status).toBe(201);
      expect(res.json.data.tags).toEqual(["plan:pro", "campaign:spring 2026: week 1", "Plan:pro"]);
      expect(await storedTags(res.json.data.id)).toEqual(res.json.data.tags);
      const read = await callApi(`/v1/email_messages/${res.json.data.id}`, { authorization: ws.authorization });
      expect(read.json.data.tags).toEqual(res.json.data.tags);
    }
    const none = await callApi("/v1/email_messages", { authorization: ws.authorization, body: raw });
    expect(none.json.data.tags).toEqual([]);
    const nullTags = await callApi("/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...raw, tags: null },
    });
    expect(nullTags.json.data.tags).toEqual([]);
  });

  it("a template send carries its tags", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate({ subject: "Hi {{ name }}", bodyHtml: "<p>Hi</p>" });
    const res = await callApi("/v1/email_messages", {
      authorization: ws.authorization,
      body: { templateId: template.id, to: "ada@example.org", variables: { name: "Ada" }, tags: ["flow:welcome"] },
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ serviceTemplateId: template.id, tags: ["flow:welcome"] });
  });

  it("refuses a tag off the grammar with 400 naming it, and writes nothing", async () => {
    const ws = await createTestWorkspace();
    const cases: Array<[unknown, string, RegExp]> = [
      [["ok:1", "nocolon"], "tags[1]", /tags\[1\] must be "name:value"/],
      [[":value"], "tags[0]", /name of 1 to 50 letters/],
      [["na me:v"], "tags[0]", /name of 1 to 50 letters/],
      [[`${"n".repeat(51)}:v`], "tags[0]", /name of 1 to 50/],
      [["name:"], "tags[0]", /value of 1 to 100 characters/],
      [[`name:${"v".repeat(101)}`], "tags[0]", /value of 1 to 100 characters/],
      [["a:b", "a:c", "name:line\nbreak"], "tags[2]", /control characters/],
      [["name: padded"], "tags[0]", /white space/],
      [[42], "tags[0]", /must be a string/],
      ["plan:pro", "tags", /must be an array/],
      [Array.from({ length: 21 }, (_, i) => `n:${i}`), "tags", /at most 20/],
    ];
    for (const [tags, param, message] of cases) {
      const res = await callApi("/v1/email_messages", { authorization: ws.authorization, body: { ...raw, tags } });
      expect(res.status, JSON.stringify(tags)).toBe(400);
      expect(res.json.error).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", param });
      expect(res.json.error.message).toMatch(message);
    }
    const accepted = await callApi("/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...raw, tags: [`${"n".repeat(50)}:${"é".repeat(100)}`, "a-b_C9:x"] },
    });
    expect(accepted.status).toBe(201);
    const rows = await (
      await getDb()
    )
      .select()
      .from(emailMessages)
      .where(eq(emailMessages.workspaceId, ws.workspace.id));
    expect(rows.map((row) => row.id)).toEqual([accepted.json.data.id]);
  });

  it("each batch element has its own tags; a bad one is named with its index", async () => {
    const ws = await createTestWorkspace();
    const res = await callApi("/v1/batches", {
      authorization: ws.authorization,
      body: { emailMessages: [{ ...raw, tags: ["n:0"] }, raw, { ...raw, tags: ["n:2", "shared:yes"] }] },
    });
    expect(res.status).toBe(201);
    const ids: string[] = res.json.data.emailMessageIds;
    expect(await Promise.all(ids.map(storedTags))).toEqual([["n:0"], [], ["n:2", "shared:yes"]]);
    const bad = await callApi("/v1/sandbox/batches", {
      authorization: ws.authorization,
      body: { emailMessages: [raw, { ...raw, tags: ["fine:1", "bad"] }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.param).toBe("emailMessages[1].tags[1]");
  });

  it("a resend keeps the original's tags", async () => {
    const ws = await createTestWorkspace();
    const sent = await callApi("/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...raw, tags: ["a:1"] },
    });
    const again = await callApi(`/v1/email_messages/${sent.json.data.id}/resend`, {
      authorization: ws.authorization,
      body: {},
    });
    expect(again.status).toBe(201);
    expect(again.json.data).toMatchObject({ resentFromId: sent.json.data.id, tags: ["a:1"] });
  });
});

describe("GET /v1/email_messages?tag=", () => {
  it("filters by one tag, by several (AND), with the other filters, and pages with cursors", async () => {
    const ws = await createTestWorkspace();
    const send = async (tags: string[], to = "ada@example.org") =>
      (await callApi("/v1/sandbox/email_messages", { authorization: ws.authorization, body: { ...raw, to, tags } }))
        .json.data.id as string;
    const sent: string[] = [];
    for (let i = 0; i < 7; i++) sent.push(await send(i % 2 ? ["plan:pro", "region:eu"] : ["plan:pro"]));
    await send(["plan:free"]);
    await send([]);
    await send(["plan:pro"], "bob@example.org");
    const newestFirst = [...sent].reverse();
    const get = (query: string) => callApi(`/v1/email_messages?${query}`, { authorization: ws.authorization });
    const ids = (res: Awaited<ReturnType<typeof get>>) => res.json.data.map((m: { id: string }) => m.id);

    const all: string[] = [];
    let page = await get("tag=plan:pro&to=ada@example.org&limit=3");
    for (;;) {
      expect(page.status).toBe(200);
      all.push(...ids(page));
      const after = page.json.meta["cursor.after"];
      if (!after) break;
      page = await get(`tag=plan:pro&to=ada@example.org&limit=3&cursor.after=${after}`);
    }
    expect(all).toEqual(newestFirst);

    const eu = sent.filter((_, i) => i % 2 === 1).reverse();
    const both = await get("tag=region:eu&tag=plan:pro&limit=2");
    expect(ids(both)).toEqual(eu.slice(0, 2));
    const next = await get(`tag=region:eu&tag=plan:pro&limit=2&cursor.after=${both.json.meta["cursor.after"]}`);
    expect(ids(next)).toEqual(eu.slice(2));
    expect(next.json.meta["cursor.after"]).toBeNull();
    const back = await get(`tag=region:eu&tag=plan:pro&limit=2&cursor.before=${ids(next)[0]}`);
    expect(ids(back)).toEqual(ids(both));

    expect(ids(await get(`tag=${encodeURIComponent("plan:free")}`))).toHaveLength(1);
    expect(ids(await get("tag=plan:none"))).toEqual([]);
    expect(ids(await get("tag=Plan:pro"))).toEqual([]);
    expect(ids(await get("tag=plan:pro&status=SUCCEEDED&source=SANDBOX_API"))).toHaveLength(8);
  });

  it("a tag off the grammar is a 400 naming it", async () => {
    const ws = await createTestWorkspace();
    const res = await callApi("/v1/email_messages?tag=plan:pro&tag=oops", { authorization: ws.authorization });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", param: "tag[1]" });
  });

  it("the containment the filter uses (arrayContains) can be answered by the GIN index on both databases", async () => {
    const db = await getDb();
    const plan = await db.transaction(async (tx) => {
      // A near-empty table is cheaper to scan, so the planner is told not to: the question is whether it *can*.
      await tx.execute(sql`set local enable_seqscan = off`);
      return rowsOf<{ "QUERY PLAN": string }>(
        await tx.execute(
          sql`explain select id from email_messages where ${arrayContains(emailMessages.tags, ["plan:pro", "region:eu"])}`,
        ),
      )
        .map((row) => row["QUERY PLAN"])
        .join("\n");
    });
    expect(plan).toMatch(/email_messages_tags_idx/);
  });
});
