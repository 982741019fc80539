import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { activityLogs } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { newId } from "@/lib/foundation/ids";
import { bufferActivityRow, flushActivityLog, recordActivity, type ActivityEntry } from "./record-activity";

const entry = (workspaceId: string, overrides: Partial<ActivityEntry> = {}): ActivityEntry => ({
  workspaceId,
  apiKeyId: null,
  method: "POST",
  path: "/api/v1/email_messages",
  status: 201,
  durationMs: 1,
  sandbox: false,
  errorCode: null,
  resourceId: null,
  requestBody: { to: "a@example.org" },
  responseBody: null,
  ...overrides,
});

function deep(levels: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

async function pathsOf(...workspaceIds: string[]) {
  const rows = await (await getDb()).select().from(activityLogs).where(inArray(activityLogs.workspaceId, workspaceIds));
  return rows.map((row) => row.path).sort();
}

describe("recordActivity with hostile entries", () => {
  it("makes a NUL, 10,000-deep or lone-surrogate entry storable, and stores its neighbours of every workspace", async () => {
    const [one, two] = [await createTestWorkspace(), await createTestWorkspace()];
    recordActivity(entry(one.workspace.id, { path: "/clean-1" }));
    recordActivity(
      entry(one.workspace.id, {
        path: "/nul",
        requestBody: { to: "a\u0000@example.org" },
        responseBody: { ["k\u0000"]: 1 },
      }),
    );
    recordActivity(entry(two.workspace.id, { path: "/deep", requestBody: deep(10_000) }));
    recordActivity(
      entry(two.workspace.id, {
        path: "/surrogate",
        requestBody: { subject: "x\uD800y", name: `${"é".repeat(1999)}😀` },
      }),
    );
    recordActivity(entry(two.workspace.id, { path: "/clean-2" }));
    await flushActivityLog();
    expect(await pathsOf(one.workspace.id, two.workspace.id)).toEqual([
      "/clean-1",
      "/clean-2",
      "/deep",
      "/nul",
      "/surrogate",
    ]);
    const rows = await (
      await getDb()
    )
      .select()
      .from(activityLogs)
      .where(inArray(activityLogs.workspaceId, [one.workspace.id, two.workspace.id]));
    const byPath = new Map(rows.map((row) => [row.path, row]));
    expect(byPath.get("/nul")).toMatchObject({
      requestBody: { to: "a\uFFFD@example.org" },
      responseBody: { "k\uFFFD": 1 },
    });
    expect(JSON.stringify(byPath.get("/deep")!.requestBody)).toBe(
      `${'{"a":'.repeat(8)}"[omitted: nested deeper than 8 levels]"${"}".repeat(8)}`,
    );
    // The lone surrogate, and the half pair left where the long string was cut, become U+FFFD.
    expect(byPath.get("/surrogate")!.requestBody).toEqual({
      subject: "x\uFFFDy",
      name: `${"é".repeat(1999)}\uFFFD… [1 more characters]`,
    });
  });

  it("falls back to row by row when the database refuses a row the sanitiser never saw: only that row is lost", async () => {
    const [one, two] = [await createTestWorkspace(), await createTestWorkspace()];
    const row = (workspaceId: string, path: string, requestBody: unknown = null) => ({
      ...entry(workspaceId),
      id: newId("activity"),
      path,
      requestBody,
    });
    bufferActivityRow(row(one.workspace.id, "/clean-1"));
    bufferActivityRow(row(two.workspace.id, "/poisoned", { to: "a\u0000b" }));
    bufferActivityRow(row(two.workspace.id, "/clean-2"));
    bufferActivityRow(row(one.workspace.id, "/clean-3"));
    await flushActivityLog();
    expect(await pathsOf(one.workspace.id, two.workspace.id)).toEqual(["/clean-1", "/clean-2", "/clean-3"]);
  });
});
