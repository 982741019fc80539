import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { GET } from "./handlers";
import { flushActivityLog } from "@/lib/records/activity/record-activity";
import { activityLogs } from "@/db/schema";
import { eq } from "drizzle-orm";

/** Seven messages, three of them sharing one timestamp (ties are broken by id, stably). */
async function seed(workspaceId: string) {
  const base = Date.UTC(2026, 0, 1);
  const times = [0, 1000, 2000, 2000, 2000, 3000, 4000].map((offset) => new Date(base + offset));
  const rows = times.map((createdAt, i) => ({
    id: newId("message", createdAt),
    workspaceId,
    source: i % 2 ? ("SANDBOX_API" as const) : ("API" as const),
    sandbox: i % 2 === 1,
    status: i === 6 ? ("FAILED" as const) : ("SUCCEEDED" as const),
    to: [`User ${i} <u${i}@example.org>`],
    toAddresses: [`u${i}@example.org`],
    from: "hello@example.com",
    subject: `m${i}`,
    bodyHtml: "<p>x</p>",
    bodyText: "x",
    metaId: i < 2 ? "order-7" : null,
    createdAt,
    updatedAt: createdAt,
  }));
  await (await getDb()).insert(emailMessages).values(rows);
  // Newest first: created_at desc, then id desc.
  return [...rows]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
    .map((r) => r.id);
}

describe("GET /v1/email_messages", () => {
  it("pages newest first with cursors in both directions", async () => {
    const ws = await createTestWorkspace();
    const expected = await seed(ws.workspace.id);
    const get = (query: string) =>
      callRoute(GET, `/api/v1/email_messages?${query}`, { authorization: ws.authorization });

    const first = await get("limit=3");
    expect(first.status).toBe(200);
    expect(first.json.data.map((m: { id: string }) => m.id)).toEqual(expected.slice(0, 3));
    expect(first.json.meta).toEqual({ limit: 3, count: 3, "cursor.after": expected[2], "cursor.before": null });

    const second = await get(`limit=3&cursor.after=${expected[2]}`);
    expect(second.json.data.map((m: { id: string }) => m.id)).toEqual(expected.slice(3, 6));
    expect(second.json.meta).toMatchObject({ "cursor.after": expected[5], "cursor.before": expected[3] });

    const last = await get(`limit=3&cursor.after=${expected[5]}`);
    expect(last.json.data.map((m: { id: string }) => m.id)).toEqual(expected.slice(6));
    expect(last.json.meta).toMatchObject({ count: 1, "cursor.after": null, "cursor.before": expected[6] });

    const back = await get(`limit=3&cursor.before=${expected[6]}`);
    expect(back.json.data.map((m: { id: string }) => m.id)).toEqual(expected.slice(3, 6));
    expect(back.json.meta).toMatchObject({ "cursor.after": expected[5], "cursor.before": expected[3] });

    const backToStart = await get(`limit=3&cursor.before=${expected[3]}`);
    expect(backToStart.json.data.map((m: { id: string }) => m.id)).toEqual(expected.slice(0, 3));
    expect(backToStart.json.meta["cursor.before"]).toBeNull();
  });

  it("filters by createdAt, status, source, metaId and to", async () => {
    const ws = await createTestWorkspace();
    const expected = await seed(ws.workspace.id);
    const ids = async (query: string) =>
      (await callRoute(GET, `/api/v1/email_messages?${query}`, { authorization: ws.authorization })).json.data.map(
        (m: { id: string }) => m.id,
      );
    expect(await ids("createdAt.gte=2026-01-01T00:00:02.000Z&createdAt.lt=2026-01-01T00:00:03.000Z")).toEqual(
      expected.slice(2, 5),
    );
    expect(await ids("createdAt.gt=2026-01-01T00:00:03.000Z")).toEqual([expected[0]]);
    expect(await ids("status=FAILED")).toEqual([expected[0]]);
    expect((await ids("source=SANDBOX_API")).length).toBe(3);
    expect((await ids("metaId=order-7")).length).toBe(2);
    expect((await ids("to=U3@example.org")).length).toBe(1);
  });

  it("rejects bad parameters naming them, and never shows another workspace's messages", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const theirs = await seed(other.workspace.id);
    const get = (query: string) =>
      callRoute(GET, `/api/v1/email_messages?${query}`, { authorization: ws.authorization });
    for (const [query, param] of [
      ["limit=100", "limit"],
      ["status=SENT", "status"],
      ["createdAt.lte=soon", "createdAt.lte"],
      [`cursor.after=${theirs[0]}`, "cursor.after"],
      ["to=not-an-address", "to"],
    ]) {
      const res = await get(query);
      expect(res.status).toBe(400);
      expect(res.json.error.param).toBe(param);
    }
    const mine = await get("");
    expect(mine.json.data).toEqual([]);
    expect(mine.json.meta).toEqual({ limit: 50, count: 0, "cursor.after": null, "cursor.before": null });
    expect((await callRoute(GET, "/api/v1/email_messages", {})).status).toBe(401);
  });

  it("filters by subject: a substring, any case, % and _ as plain text; 400 for an empty one", async () => {
    const ws = await createTestWorkspace();
    await seed(ws.workspace.id);
    const db = await getDb();
    const at = new Date(Date.UTC(2026, 0, 2));
    const row = (subject: string, offset: number) => ({
      id: newId("message", new Date(at.getTime() + offset)),
      workspaceId: ws.workspace.id,
      source: "API" as const,
      sandbox: false,
      status: "SUCCEEDED" as const,
      to: ["a@example.org"],
      toAddresses: ["a@example.org"],
      from: "hello@example.com",
      subject,
      bodyHtml: "",
      bodyText: "",
      createdAt: new Date(at.getTime() + offset),
      updatedAt: at,
    });
    const rows = [
      row("Your RECEIPT for order 1042", 0),
      row("Receipts: 100% done", 1),
      row("Welcome", 2),
      row("a_b", 3),
      row("axb", 4),
    ];
    await db.insert(emailMessages).values(rows);
    const subjects = async (query: string) => {
      const page = await callRoute(GET, `/api/v1/email_messages?${query}`, { authorization: ws.authorization });
      expect(page.status).toBe(200);
      return page.json.data.map((m: { subject: string }) => m.subject);
    };
    expect(await subjects("subject=receipt")).toEqual(["Receipts: 100% done", "Your RECEIPT for order 1042"]);
    expect(await subjects("subject=%25")).toEqual(["Receipts: 100% done"]);
    expect(await subjects("subject=a_b")).toEqual(["a_b"]);
    expect(await subjects("subject=%20welcome%20&status=SUCCEEDED")).toEqual(["Welcome"]);
    const empty = await callRoute(GET, "/api/v1/email_messages?subject=%20", { authorization: ws.authorization });
    expect([empty.status, empty.json.error.param]).toEqual([400, "subject"]);
  });

  it("logs a page's meta and the ids it listed, not the items, to the activity log", async () => {
    const ws = await createTestWorkspace();
    const ids = await seed(ws.workspace.id);
    const res = await callRoute(GET, "/api/v1/email_messages?limit=3", { authorization: ws.authorization });
    expect(res.status).toBe(200);
    await flushActivityLog();
    const [entry] = await (
      await getDb()
    )
      .select()
      .from(activityLogs)
      .where(eq(activityLogs.workspaceId, ws.workspace.id));
    expect(entry).toMatchObject({ method: "GET", path: "/api/v1/email_messages", status: 200 });
    expect(entry.responseBody).toEqual({ meta: res.json.meta, data: ids.slice(0, 3).map((id) => ({ id })) });
  });
});
