import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createUser } from "@/lib/domain/users/create-user";
import { randomBase62 } from "@/lib/foundation/ids";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { AUDIT_SYSTEM_ACTOR, type AuditActor } from "./actor";
import { auditActorNames } from "./actor-names";
import { auditActorWords } from "./actor-words.shared";
import { listAuditEvents, parseAuditListQuery } from "./list-audit-events";
import { recordAudit } from "./record-audit";

async function audit(workspaceId: string, actor: AuditActor, action: string) {
  await (
    await getDb()
  ).transaction((tx) => recordAudit(tx, { workspaceId, actor, action, target: { type: "test", id: null } }));
}

/** The page's words for each of the workspace's entries with the given action. */
async function wordsFor(workspaceId: string, action: string) {
  const { items } = await listAuditEvents(workspaceId, parseAuditListQuery(new URLSearchParams({ action })));
  const names = await auditActorNames(workspaceId, items);
  return items.map((row) => auditActorWords(row, names));
}

describe("the audit log's actors in words", () => {
  it("names a user recorded by id alone by their name and email, never a bare user id", async () => {
    const { workspace } = await createTestWorkspace();
    const email = `grace-${randomBase62(8).toLowerCase()}@example.com`;
    const user = await createUser({
      email,
      name: "Grace Hopper",
      password: "a long enough passphrase",
      workspaceId: workspace.id,
    });
    await audit(workspace.id, { type: "USER", id: user.id, label: null }, "test.by_id");
    expect(await wordsFor(workspace.id, "test.by_id")).toEqual([`Grace Hopper (${email})`]);
  });

  it("names an API key by its name and the system as Postwerk; a user gone since keeps the recorded label", async () => {
    const { workspace, key } = await createTestWorkspace();
    await audit(workspace.id, { type: "API_KEY", id: key.id, label: null }, "test.by_key");
    await audit(workspace.id, { type: "SYSTEM", id: null, label: null }, "test.by_system");
    await audit(workspace.id, AUDIT_SYSTEM_ACTOR, "test.by_system");
    await audit(workspace.id, { type: "USER", id: "user_gone", label: "left@example.com" }, "test.by_gone");
    expect(await wordsFor(workspace.id, "test.by_key")).toEqual(["test key"]);
    expect(await wordsFor(workspace.id, "test.by_system")).toEqual(["Postwerk", "Postwerk"]);
    expect(await wordsFor(workspace.id, "test.by_gone")).toEqual(["left@example.com"]);
  });
});
