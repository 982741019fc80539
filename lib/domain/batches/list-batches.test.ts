import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { AppError } from "@/lib/foundation/errors";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { listBatches, parseBatchListQuery } from "./list-batches";
import { sendBatch } from "@/lib/sending/send-batch";

const raw = (i: number) => ({
  from: "hello@example.com",
  to: `u${i}@example.org`,
  subject: `S ${i}`,
  bodyHtml: `<p>${i}</p>`,
});
const params = (query: Record<string, string> = {}) => parseBatchListQuery(new URLSearchParams(query));

describe("listBatches", () => {
  it("lists the workspace's batches newest first with their messages counted by status, in keyset pages", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const first = await sendBatch({
      workspaceId: ws.workspace.id,
      sandbox: true,
      body: { emailMessages: [raw(0), raw(1), raw(2)] },
    });
    const second = await sendBatch({ workspaceId: ws.workspace.id, sandbox: false, body: { emailMessages: [raw(3)] } });
    await sendBatch({ workspaceId: other.workspace.id, sandbox: true, body: { emailMessages: [raw(4)] } });
    await (
      await getDb()
    )
      .update(emailMessages)
      .set({ status: "FAILED" })
      .where(eq(emailMessages.id, first.emailMessageIds[1]));

    const page = await listBatches(ws.workspace.id, params());
    expect(page.items.map((batch) => batch.id)).toEqual([second.batch.id, first.batch.id]);
    expect(page.items[1]).toMatchObject({
      sandbox: true,
      count: 3,
      counts: { SUCCEEDED: 2, FAILED: 1, PENDING: 0, PAUSED: 0, DELETED: 0 },
    });
    expect(page.items[0]).toMatchObject({ sandbox: false, count: 1 });
    expect(page.items[0].counts.PENDING + page.items[0].counts.SUCCEEDED + page.items[0].counts.PAUSED).toBe(1);

    const one = await listBatches(ws.workspace.id, params({ limit: "1" }));
    expect(one.items.map((batch) => batch.id)).toEqual([second.batch.id]);
    expect(one.meta["cursor.after"]).toBe(second.batch.id);
    const next = await listBatches(ws.workspace.id, params({ limit: "1", "cursor.after": second.batch.id }));
    expect(next.items.map((batch) => batch.id)).toEqual([first.batch.id]);
    expect(next.meta).toMatchObject({ "cursor.after": null, "cursor.before": first.batch.id });
  });

  it("is empty for a new workspace and refuses another workspace's batch as a cursor", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const theirs = await sendBatch({
      workspaceId: other.workspace.id,
      sandbox: true,
      body: { emailMessages: [raw(0)] },
    });
    expect((await listBatches(ws.workspace.id, params())).items).toEqual([]);
    const error = await listBatches(ws.workspace.id, params({ "cursor.after": theirs.batch.id })).catch(
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).param).toBe("cursor.after");
  });
});
