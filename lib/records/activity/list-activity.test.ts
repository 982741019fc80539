import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/foundation/errors";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { listActivity, parseActivityListQuery } from "./list-activity";
import { flushActivityLog, recordActivity, type ActivityEntry } from "./record-activity";

function entry(workspaceId: string, apiKeyId: string | null, overrides: Partial<ActivityEntry>): ActivityEntry {
  return {
    workspaceId,
    apiKeyId,
    method: "POST",
    path: "/api/v1/email_messages",
    status: 201,
    durationMs: 4,
    sandbox: false,
    errorCode: null,
    resourceId: null,
    requestBody: { to: "a@example.org" },
    responseBody: { data: {} },
    ...overrides,
  };
}

// The page parses its URL, then lists; a bad value rejects either way.
const list = async (workspaceId: string, query: Record<string, string> = {}) =>
  listActivity(workspaceId, parseActivityListQuery(new URLSearchParams(query)));

describe("listActivity", () => {
  it("lists the workspace's requests newest first with the key's name, filtered by sandbox and errors", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    recordActivity(entry(ws.workspace.id, ws.key.id, { path: "/api/v1/email_messages", resourceId: "em_1" }));
    await flushActivityLog();
    recordActivity(entry(ws.workspace.id, ws.key.id, { path: "/api/v1/sandbox/email_messages", sandbox: true }));
    await flushActivityLog();
    recordActivity(
      entry(ws.workspace.id, ws.key.id, {
        path: "/api/v1/sandbox/batches",
        sandbox: true,
        status: 400,
        errorCode: "INVALID_JSON",
      }),
    );
    await flushActivityLog();
    recordActivity(entry(ws.workspace.id, null, { path: "/api/v1/email_messages/em_x", method: "GET", status: 404 }));
    recordActivity(entry(other.workspace.id, other.key.id, { path: "/api/v1/theirs" }));
    await flushActivityLog();

    const all = await list(ws.workspace.id);
    expect(all.items.map((row) => row.path)).toEqual([
      "/api/v1/email_messages/em_x",
      "/api/v1/sandbox/batches",
      "/api/v1/sandbox/email_messages",
      "/api/v1/email_messages",
    ]);
    expect(all.items[1]).toMatchObject({
      apiKeyId: ws.key.id,
      apiKeyName: "test key",
      status: 400,
      requestBody: { to: "a@example.org" },
    });
    expect(all.items[0].apiKeyName).toBeNull();
    expect((await list(ws.workspace.id, { sandbox: "1" })).items.map((row) => row.path)).toEqual([
      "/api/v1/sandbox/batches",
      "/api/v1/sandbox/email_messages",
    ]);
    expect((await list(ws.workspace.id, { errors: "true" })).items.map((row) => row.status)).toEqual([404, 400]);
    expect((await list(ws.workspace.id, { errors: "1", sandbox: "1" })).items.map((row) => row.path)).toEqual([
      "/api/v1/sandbox/batches",
    ]);
    expect((await list(ws.workspace.id, { errors: "0" })).filters).toEqual({ sandboxOnly: false, errorsOnly: false });
  });

  it("pages with keyset cursors and refuses a bad filter value or another workspace's cursor", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    for (const path of ["/a", "/b", "/c"]) {
      recordActivity(entry(ws.workspace.id, ws.key.id, { path }));
      await flushActivityLog();
    }
    recordActivity(entry(other.workspace.id, other.key.id, { path: "/theirs" }));
    await flushActivityLog();
    const first = await list(ws.workspace.id, { limit: "2" });
    expect(first.items.map((row) => row.path)).toEqual(["/c", "/b"]);
    const second = await list(ws.workspace.id, { limit: "2", "cursor.after": first.meta["cursor.after"]! });
    expect(second.items.map((row) => row.path)).toEqual(["/a"]);

    const theirs = (await list(other.workspace.id)).items[0].id;
    for (const query of [{ errors: "yes" }, { "cursor.after": theirs }] as Array<Record<string, string>>) {
      const error = await list(ws.workspace.id, query).catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("EMAIL_MESSAGE_INVALID_PARAMETER_ERROR");
    }
  });
});
