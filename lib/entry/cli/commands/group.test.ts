import { describe, expect, it } from "vitest";
import { callRoute } from "@/lib/testing/http";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { POST } from "@/app/api/v1/email_messages/handlers";
import { getMessageOrThrow } from "@/lib/domain/messages/get-message-or-throw";
import { cli } from "../testing";

describe("group create", () => {
  it("creates an unsubscribe group that sends can name by key or id", async () => {
    const ws = await createTestWorkspace();
    const created = await cli([
      "group",
      "create",
      "--workspace",
      ws.workspace.id,
      "--key",
      "newsletter",
      "--name",
      "Newsletter",
      "--json",
    ]);
    expect(created.code).toBe(0);
    const group = JSON.parse(created.stdout);
    expect(group).toMatchObject({ key: "newsletter", name: "Newsletter", workspaceId: ws.workspace.id });
    expect(group.id).toMatch(/^group_[0-9A-Za-z]{16}$/);

    const body = { from: "hello@example.com", to: "a@example.org", subject: "News", bodyHtml: "<p>x</p>" };
    const byKey = await callRoute(POST, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...body, groupKey: "newsletter" },
    });
    expect(byKey.status).toBe(201);
    expect((await getMessageOrThrow(ws.workspace.id, byKey.json.data.id)).groupId).toBe(group.id);
    const byId = await callRoute(POST, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...body, groupId: group.id },
    });
    expect(byId.status).toBe(201);
  });

  it("refuses a duplicate key, a bad key and missing flags", async () => {
    const ws = await createTestWorkspace();
    expect((await cli(["group", "create", "--workspace", ws.workspace.id, "--key", "k1", "--name", "One"])).code).toBe(
      0,
    );
    const duplicate = await cli(["group", "create", "--workspace", ws.workspace.id, "--key", "k1", "--name", "Again"]);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain("already has an unsubscribe group with the key k1");
    expect(
      (await cli(["group", "create", "--workspace", ws.workspace.id, "--key", "has space", "--name", "x"])).code,
    ).toBe(1);
    expect((await cli(["group", "create", "--workspace", ws.workspace.id, "--name", "x"])).code).toBe(2);
  });
});
