import { describe, expect, it } from "vitest";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { parseEmailListSearch } from "./email-list-search";
import { countNewerMessages, listDashboardMessages, listTemplateChoices } from "./list-dashboard-messages";
import { NOTHING_RECORDED_YET } from "./testing";

const at = (day: number, second = 0) => new Date(Date.UTC(2026, 0, day, 12, 0, second));
const search = (query: Record<string, string>) => new URLSearchParams(query);

/** What the Emails page does: parse its URL, then list (or show the value it could not read). */
async function list(workspaceId: string, query: Record<string, string>) {
  const parsed = parseEmailListSearch(search(query));
  return parsed.ok ? listDashboardMessages(workspaceId, parsed.query) : parsed;
}

/** What GET /emails/latest does with its URL: the filters, without the page's limit and cursors. */
function filters(query: Record<string, string>) {
  const parsed = parseEmailListSearch(search(query), { pages: false });
  if (!parsed.ok) throw new Error(`${parsed.param}: ${parsed.message}`);
  return parsed.query;
}

async function pageOf(workspaceId: string, query: Record<string, string>) {
  const result = await list(workspaceId, query);
  if (!result.ok) throw new Error(`${result.param}: ${result.message}`);
  return result.page;
}

describe("listDashboardMessages", () => {
  it("filters scheduled mail: still waiting for its time, or not scheduled at all", async () => {
    const { workspace } = await createTestWorkspace();
    const later = new Date(Date.UTC(2030, 0, 1));
    const waiting = await insertTestMessage(workspace.id, { createdAt: at(1), scheduledAt: later });
    const held = await insertTestMessage(workspace.id, { createdAt: at(2), scheduledAt: later, status: "PAUSED" });
    await insertTestMessage(workspace.id, { createdAt: at(3), scheduledAt: later, status: "CANCELLED" });
    await insertTestMessage(workspace.id, { createdAt: at(4), scheduledAt: later, handedOverAt: at(5) });
    const immediate = await insertTestMessage(workspace.id, { createdAt: at(5) });
    const ids = async (query: Record<string, string>) => (await pageOf(workspace.id, query)).rows.map((row) => row.id);
    expect(await ids({ scheduled: "true" })).toEqual([held, waiting]);
    expect(await ids({ scheduled: "false" })).toEqual([immediate]);
    expect((await pageOf(workspace.id, { scheduled: "true" })).rows[1].scheduledAt).toEqual(later);
    expect(await list(workspace.id, { scheduled: "soon" })).toMatchObject({ ok: false, param: "scheduled" });
  });

  it("filters by every dashboard parameter and keeps to the workspace", async () => {
    const { workspace, createTemplate } = await createTestWorkspace();
    const { workspace: other } = await createTestWorkspace();
    const template = await createTemplate();
    const plain = await insertTestMessage(workspace.id, { createdAt: at(1) });
    const failed = await insertTestMessage(workspace.id, { createdAt: at(2), status: "FAILED", metaId: "order-1" });
    const sandbox = await insertTestMessage(workspace.id, {
      createdAt: at(3),
      source: "SANDBOX_API",
      sandbox: true,
      templateId: template.id,
    });
    const batched = await insertTestMessage(workspace.id, {
      createdAt: at(4),
      source: "BATCH",
      batchId: "batch_0000000000000001",
      to: ["Bob <bob@example.net>"],
      toAddresses: ["bob@example.net"],
    });
    await insertTestMessage(other.id, { createdAt: at(5), status: "FAILED", metaId: "order-1" });

    const ids = async (query: Record<string, string>) => (await pageOf(workspace.id, query)).rows.map((row) => row.id);
    expect(await ids({})).toEqual([batched, sandbox, failed, plain]);
    expect(await ids({ status: "FAILED" })).toEqual([failed]);
    expect(await ids({ source: "BATCH" })).toEqual([batched]);
    expect(await ids({ mode: "sandbox" })).toEqual([sandbox]);
    expect(await ids({ mode: "live" })).toEqual([batched, failed, plain]);
    expect(await ids({ templateId: template.id })).toEqual([sandbox]);
    expect(await ids({ batchId: "batch_0000000000000001" })).toEqual([batched]);
    expect(await ids({ to: "BOB@example.net" })).toEqual([batched]);
    expect(await ids({ metaId: "order-1" })).toEqual([failed]);
    expect(await ids({ createdFrom: "2026-01-02", createdTo: "2026-01-03" })).toEqual([sandbox, failed]);
    // Empty fields of a submitted GET form mean "no filter".
    expect(await ids({ status: "", source: "", mode: "", to: " " })).toHaveLength(4);

    const [row] = (await pageOf(workspace.id, { status: "FAILED" })).rows;
    expect(row).toEqual({
      id: failed,
      status: "FAILED",
      source: "API",
      submittedVia: null,
      sandbox: false,
      to: ["Ada <ada@example.org>"],
      subject: "Hello",
      tags: [],
      templateId: null,
      metaId: "order-1",
      createdAt: at(2),
      erased: false,
      // The timeline's columns, for its delivery state: nothing recorded yet.
      ...NOTHING_RECORDED_YET,
    });
    expect(await listTemplateChoices(workspace.id)).toEqual([{ id: template.id, name: "Welcome" }]);
    expect(await listTemplateChoices(other.id)).toEqual([]);
  });

  it("pages with cursors in both directions", async () => {
    const { workspace } = await createTestWorkspace();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.unshift(await insertTestMessage(workspace.id, { createdAt: at(1, i) }));

    const first = await pageOf(workspace.id, { limit: "2" });
    expect(first.rows.map((row) => row.id)).toEqual(ids.slice(0, 2));
    expect(first.newerCursor).toBeNull();
    const second = await pageOf(workspace.id, { limit: "2", "cursor.after": first.olderCursor! });
    expect(second.rows.map((row) => row.id)).toEqual(ids.slice(2, 4));
    const last = await pageOf(workspace.id, { limit: "2", "cursor.after": second.olderCursor! });
    expect(last.rows.map((row) => row.id)).toEqual(ids.slice(4));
    expect(last.olderCursor).toBeNull();
    const back = await pageOf(workspace.id, { limit: "2", "cursor.before": last.newerCursor! });
    expect(back.rows.map((row) => row.id)).toEqual(ids.slice(2, 4));
  });

  it("returns bad values with the field they concern, and another workspace's cursor is unknown", async () => {
    const { workspace } = await createTestWorkspace();
    const { workspace: other } = await createTestWorkspace();
    const foreign = await insertTestMessage(other.id);
    const error = async (query: Record<string, string>) => {
      const result = await list(workspace.id, query);
      return result.ok ? null : result.param;
    };
    expect(await error({ status: "LOST" })).toBe("status");
    expect(await error({ source: "FAX" })).toBe("source");
    expect(await error({ mode: "both" })).toBe("mode");
    expect(await error({ to: "not an address" })).toBe("to");
    expect(await error({ createdFrom: "31/01/2026" })).toBe("createdFrom");
    expect(await error({ createdTo: "2026-02-30x" })).toBe("createdTo");
    expect(await error({ createdFrom: "2026-02-02", createdTo: "2026-02-01" })).toBe("createdTo");
    expect(await error({ limit: "500" })).toBe("limit");
    expect(await error({ "cursor.after": foreign })).toBe("cursor.after");
  });

  it("marks erased and purged rows and hides an erased subject", async () => {
    const { workspace } = await createTestWorkspace();
    await insertTestMessage(workspace.id, { createdAt: at(1), status: "DELETED", subject: "secret" });
    await insertTestMessage(workspace.id, { createdAt: at(2), contentPurgedAt: at(3), subject: "kept" });
    const rows = (await pageOf(workspace.id, {})).rows;
    expect(rows.map((row) => [row.subject, row.erased])).toEqual([
      ["kept", true],
      ["", true],
    ]);
  });
});

describe("countNewerMessages", () => {
  it("counts the matching messages newer than the top row, per workspace", async () => {
    const { workspace } = await createTestWorkspace();
    const { workspace: other } = await createTestWorkspace();
    const top = await insertTestMessage(workspace.id, { createdAt: at(1) });
    expect(await countNewerMessages(workspace.id, filters({}), top)).toEqual({ count: 0, more: false });
    await insertTestMessage(workspace.id, { createdAt: at(2) });
    await insertTestMessage(workspace.id, { createdAt: at(3), status: "FAILED" });
    await insertTestMessage(other.id, { createdAt: at(4) });
    expect(await countNewerMessages(workspace.id, filters({}), top)).toEqual({ count: 2, more: false });
    expect(await countNewerMessages(workspace.id, filters({ status: "FAILED" }), top)).toEqual({
      count: 1,
      more: false,
    });
    // The page parameters of the URL do not change what "new" means.
    expect(await countNewerMessages(workspace.id, filters({ limit: "1", "cursor.after": top }), top)).toEqual({
      count: 2,
      more: false,
    });
    // Another workspace's id as the anchor counts nothing.
    expect(await countNewerMessages(other.id, filters({}), top)).toEqual({ count: 0, more: false });
    expect(await countNewerMessages(workspace.id, filters({}), null)).toEqual({ count: 3, more: false });
  });

  it("searches subjects from the page's subject field, combined with the other filters", async () => {
    const { workspace } = await createTestWorkspace();
    const receipt = await insertTestMessage(workspace.id, { createdAt: at(1), subject: "Your receipt #1042" });
    await insertTestMessage(workspace.id, { createdAt: at(2), subject: "Welcome aboard" });
    const failed = await insertTestMessage(workspace.id, {
      createdAt: at(3),
      subject: "RECEIPT again",
      status: "FAILED",
    });
    const ids = async (query: Record<string, string>) => (await pageOf(workspace.id, query)).rows.map((row) => row.id);
    expect(await ids({ subject: "  Receipt " })).toEqual([failed, receipt]);
    expect(await ids({ subject: "receipt", status: "FAILED" })).toEqual([failed]);
    expect(await ids({ subject: "" })).toHaveLength(3);
    const tooLong = await list(workspace.id, { subject: "x".repeat(201) });
    expect(tooLong.ok ? null : tooLong.param).toBe("subject");
  });
});
