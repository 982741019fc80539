import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { groupUnsubscribes } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { createUnsubscribeGroup } from "./create-unsubscribe-group";
import { listUnsubscribeGroups } from "./list-unsubscribe-groups";
import { updateUnsubscribeGroupOrThrow } from "./update-unsubscribe-group";

describe("unsubscribe groups in the dashboard", () => {
  it("lists groups by name with unsubscribe and message counts", async () => {
    const ws = await createTestWorkspace();
    const news = await createUnsubscribeGroup({ workspaceId: ws.workspace.id, key: "news", name: "Newsletter" });
    await createUnsubscribeGroup({ workspaceId: ws.workspace.id, key: "alerts", name: "Alerts" });
    const db = await getDb();
    for (const email of ["a@example.org", "b@example.org"]) {
      await db
        .insert(groupUnsubscribes)
        .values({ id: newId("unsubscribe"), workspaceId: ws.workspace.id, groupId: news.id, email });
    }
    for (let index = 0; index < 3; index++) await insertTestMessage(ws.workspace.id, { groupId: news.id });
    expect(
      (await listUnsubscribeGroups(ws.workspace.id)).map((g) => [g.name, g.unsubscribedCount, g.messageCount]),
    ).toEqual([
      ["Alerts", 0, 0],
      ["Newsletter", 2, 3],
    ]);
  });

  it("renames any time; changes the key only while nothing uses it", async () => {
    const ws = await createTestWorkspace();
    const group = await createUnsubscribeGroup({ workspaceId: ws.workspace.id, key: "news", name: "News" });
    const renamed = await updateUnsubscribeGroupOrThrow(ws.workspace.id, group.id, {
      name: " Product news ",
      key: "product-news",
    });
    expect(renamed).toMatchObject({ name: "Product news", key: "product-news" });
    await createUnsubscribeGroup({ workspaceId: ws.workspace.id, key: "taken", name: "Taken" });
    await expect(
      updateUnsubscribeGroupOrThrow(ws.workspace.id, group.id, { name: "x", key: "taken" }),
    ).rejects.toMatchObject({ param: "key" });
    await expect(
      updateUnsubscribeGroupOrThrow(ws.workspace.id, group.id, { name: "x", key: "bad key!" }),
    ).rejects.toMatchObject({ param: "key" });
    await expect(updateUnsubscribeGroupOrThrow(ws.workspace.id, group.id, { name: "  " })).rejects.toMatchObject({
      param: "name",
    });

    await insertTestMessage(ws.workspace.id, { groupId: group.id });
    await expect(
      updateUnsubscribeGroupOrThrow(ws.workspace.id, group.id, { name: "News", key: "again" }),
    ).rejects.toMatchObject({
      code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      param: "key",
      message: expect.stringContaining("can no longer change"),
    });
    // The same key and a new name are fine once used.
    expect(
      await updateUnsubscribeGroupOrThrow(ws.workspace.id, group.id, { name: "Latest news", key: "product-news" }),
    ).toMatchObject({ name: "Latest news", key: "product-news" });
  });

  it("another workspace's group id is not found and nothing changes", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const group = await createUnsubscribeGroup({ workspaceId: ws.workspace.id, key: "news", name: "News" });
    await expect(
      updateUnsubscribeGroupOrThrow(other.workspace.id, group.id, { name: "Hijacked" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await listUnsubscribeGroups(ws.workspace.id))[0]).toMatchObject({ name: "News", key: "news" });
    expect(await listUnsubscribeGroups(other.workspace.id)).toEqual([]);
  });
});

describe("one unsubscribe group", () => {
  it("has its counts and says when its key is locked; null for another workspace", async () => {
    const { getUnsubscribeGroup } = await import("./get-unsubscribe-group");
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const group = await createUnsubscribeGroup({ workspaceId: ws.workspace.id, key: "news", name: "News" });
    expect(await getUnsubscribeGroup(ws.workspace.id, group.id)).toMatchObject({
      key: "news",
      unsubscribedCount: 0,
      messageCount: 0,
      keyLocked: false,
    });
    await insertTestMessage(ws.workspace.id, { groupId: group.id });
    expect(await getUnsubscribeGroup(ws.workspace.id, group.id)).toMatchObject({ messageCount: 1, keyLocked: true });
    expect(await getUnsubscribeGroup(other.workspace.id, group.id)).toBeNull();
  });
});
