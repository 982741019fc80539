import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { addDomain } from "@/lib/domain/domains/add-domain";
import { changeMemberRole } from "@/lib/flows/members/change-member-role";
import { removeMember } from "@/lib/flows/members/remove-member";
import { addSuppression } from "@/lib/domain/suppressions/add-suppression";
import { removeSuppressionOrThrow } from "@/lib/domain/suppressions/remove-suppression";
import { deleteTemplate } from "@/lib/domain/templates/delete-template";
import { updateTemplate } from "@/lib/domain/templates/update-template";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { createUser } from "@/lib/domain/users/create-user";
import { randomBase62 } from "@/lib/foundation/ids";
import { pauseSending } from "@/lib/domain/workspaces/pause-sending";
import { resumeSending } from "@/lib/domain/workspaces/resume-sending";
import { updateWorkspaceSettings } from "@/lib/domain/workspaces/update-workspace-settings";
import { createEndpoint, rotateEndpointSecret } from "@/lib/flows/webhooks/manage-endpoints";
import { AUDIT_SYSTEM_ACTOR, userActor } from "./actor";
import { purgeOldAuditEvents } from "./purge-old-audit-events";
import { changedFields, recordAudit } from "./record-audit";

const ada = userActor(
  { id: "user_0000000000000001", email: "ada@example.com" },
  { ip: "198.51.100.4", userAgent: "Safari" },
);

/** The workspace's entries after the fixture's own (its key and domain, by the system). */
async function entries(workspaceId: string) {
  const rows = await (
    await getDb()
  )
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.workspaceId, workspaceId))
    .orderBy(auditEvents.createdAt, auditEvents.id);
  return rows.filter((row) => row.actorType !== "SYSTEM" || !["api_key.create", "domain.add"].includes(row.action));
}

describe("recordAudit", () => {
  it("commits with the change and only with it: a transaction that fails leaves no entry", async () => {
    const ws = await createTestWorkspace();
    const db = await getDb();
    const entry = { workspaceId: ws.workspace.id, actor: ada, action: "test.fail", target: { type: "test", id: null } };
    await expect(
      db.transaction(async (tx) => {
        await recordAudit(tx, entry);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await entries(ws.workspace.id)).toEqual([]);
    await db.transaction((tx) => recordAudit(tx, { ...entry, action: "test.ok" }));
    expect((await entries(ws.workspace.id)).map((row) => row.action)).toEqual(["test.ok"]);
  });

  it("keeps only the changed fields, never a secret-looking one, dates as ISO strings", () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    const result = changedFields(
      { name: "a", strict: true, secretHash: "x", at: null },
      { name: "b", strict: true, secretHash: "y", password: "p", at },
    );
    expect(result).toEqual({ before: { name: "a", at: null }, after: { name: "b", at: "2026-01-02T03:04:05.678Z" } });
    expect(changedFields(null, { token: "t", email: "e" })).toEqual({ before: null, after: { email: "e" } });
  });

  it("drops the fields that hold a secret's value, keeps the fields about one (docs/audit.md#an-entry)", () => {
    const secrets = [
      "secret",
      "signingSecret",
      "previousSecretEncrypted",
      "secretHint",
      "password",
      "passwordHash",
      "token",
      "accessToken",
      "refresh_token",
      "credentials",
      "privateKey",
      "dkimPrivateKeyPem",
      "secretAccessKey",
      "apiKey",
    ];
    const about = ["previousSecretExpiresAt", "tokenExpiresAt", "key", "apiKeyId", "hashAlgorithm", "private", "name"];
    const side = Object.fromEntries([...secrets, ...about].map((field) => [field, `value of ${field}`]));
    expect(Object.keys(changedFields(null, side).after!).sort()).toEqual([...about].sort());
  });
});

describe("changes are audited in their transaction", () => {
  it("a webhook secret rotation: when the previous secret stops signing, never a secret", async () => {
    const ws = await createTestWorkspace();
    const now = new Date("2026-03-04T05:06:07.000Z");
    const { endpoint, secret: first } = await createEndpoint(
      ws.workspace.id,
      { url: "https://93.184.216.34/hooks" },
      ada,
    );
    const { secret } = await rotateEndpointSecret(ws.workspace.id, endpoint.id, ada, now);
    const [entry] = (await entries(ws.workspace.id)).filter((row) => row.action === "webhook_endpoint.rotate_secret");
    expect([entry.actorId, entry.targetId, entry.before, entry.after]).toEqual([
      ada.id,
      endpoint.id,
      null,
      { previousSecretExpiresAt: "2026-03-05T05:06:07.000Z" },
    ]);
    const logged = JSON.stringify(await entries(ws.workspace.id));
    for (const value of [first, secret]) expect(logged).not.toContain(value.slice("whsec_".length));
  });

  it("pause (by a user, by the system), resume; a second pause adds nothing", async () => {
    const ws = await createTestWorkspace();
    await pauseSending({ workspaceId: ws.workspace.id, reason: "Checking a list", actor: ada });
    await pauseSending({ workspaceId: ws.workspace.id, actor: ada });
    await resumeSending({ workspaceId: ws.workspace.id, actor: ada });
    await pauseSending({
      workspaceId: ws.workspace.id,
      reason: "Bounce rate 9%",
      automatic: true,
      actor: AUDIT_SYSTEM_ACTOR,
    });
    const rows = await entries(ws.workspace.id);
    expect(rows.map((row) => [row.action, row.actorType, row.actorLabel])).toEqual([
      ["workspace.pause", "USER", "ada@example.com"],
      ["workspace.resume", "USER", "ada@example.com"],
      ["workspace.pause", "SYSTEM", "Postwerk"],
    ]);
    expect(rows[0]).toMatchObject({
      ip: "198.51.100.4",
      userAgent: "Safari",
      after: { sendingPaused: true, pausedReason: "Checking a list", pausedAutomatically: false },
    });
    expect(rows[1]).toMatchObject({
      before: { sendingPaused: true, pausedReason: "Checking a list" },
      after: { sendingPaused: false, pausedReason: null },
    });
    expect(rows[2].after).toMatchObject({ pausedAutomatically: true });
  });

  it("workspace settings: only what changed; an unchanged save or a refused one writes nothing", async () => {
    const ws = await createTestWorkspace();
    const actor = { userId: ada.id!, workspaceId: ws.workspace.id, role: "OWNER" as const, audit: ada };
    await updateWorkspaceSettings(actor, { name: "Renamed", testMode: false });
    await updateWorkspaceSettings(actor, { name: "Renamed" });
    await expect(updateWorkspaceSettings({ ...actor, role: "MEMBER" }, { name: "Nope" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const rows = await entries(ws.workspace.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: "workspace.update",
      before: { name: "Test workspace" },
      after: { name: "Renamed" },
    });
  });

  it("domains and suppressions: added and removed with their actor; a refused change writes nothing", async () => {
    const ws = await createTestWorkspace();
    const domain = await addDomain({ workspaceId: ws.workspace.id, name: "Mail.Example.org", actor: ada });
    await expect(
      addDomain({ workspaceId: ws.workspace.id, name: "mail.example.org", actor: ada }),
    ).rejects.toMatchObject({ param: "name" });
    await addSuppression({
      workspaceId: ws.workspace.id,
      email: "Bob@example.org",
      reason: "MANUAL",
      detail: "asked",
      actor: ada,
    });
    await expect(removeSuppressionOrThrow(ws.workspace.id, "nobody@example.org", ada)).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await removeSuppressionOrThrow(ws.workspace.id, "bob@example.org", ada);
    // The provider-event path names no actor: its bounce is on the message's timeline, not here.
    await addSuppression({ workspaceId: ws.workspace.id, email: "carol@example.org", reason: "HARD_BOUNCE" });
    const rows = await entries(ws.workspace.id);
    expect(rows.map((row) => [row.action, row.targetType, row.targetId])).toEqual([
      ["domain.add", "domain", domain.id],
      ["suppression.add", "suppression", "bob@example.org"],
      ["suppression.remove", "suppression", "bob@example.org"],
    ]);
    expect(rows[0].after).toEqual({ name: "mail.example.org", status: "PENDING" });
    expect(JSON.stringify(rows)).not.toMatch(/PRIVATE KEY|dkimPrivate/);
    expect(rows[2].before).toMatchObject({ reason: "MANUAL", detail: "asked", emailMessageId: null });
  });

  it("templates: a save keeps short fields and names the long ones; a stale save and a refused delete write nothing", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate({ actor: ada });
    const content = {
      name: "Welcome 2",
      subject: template.subject,
      bodyHtml: "<p>New body</p>",
      fromAddress: template.fromAddress,
      kind: "code" as const,
    };
    await updateTemplate({
      workspaceId: ws.workspace.id,
      templateId: template.id,
      content,
      userId: null,
      baseVersion: 1,
      actor: ada,
    });
    await expect(
      updateTemplate({
        workspaceId: ws.workspace.id,
        templateId: template.id,
        content,
        userId: null,
        baseVersion: 1,
        actor: ada,
      }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(
      deleteTemplate({ workspaceId: ws.workspace.id, templateId: "tpl_0000000000000000", actor: ada }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await deleteTemplate({ workspaceId: ws.workspace.id, templateId: template.id, actor: ada });
    const rows = await entries(ws.workspace.id);
    expect(rows.map((row) => row.action)).toEqual(["template.create", "template.update", "template.delete"]);
    expect(rows[1].before).toEqual({ name: "Welcome", version: 1 });
    expect(rows[1].after).toEqual({ name: "Welcome 2", version: 2, changed: ["bodyHtml"] });
    expect(rows[2].before).toEqual({ name: "Welcome 2" });
  });

  it("members: a role change and a removal; refusing to remove the last owner writes nothing", async () => {
    const ws = await createTestWorkspace();
    const owner = await createUser({
      email: `owner-${randomBase62(6)}@example.com`,
      password: "a-long-password",
      workspaceId: ws.workspace.id,
      role: "OWNER",
    });
    const member = await createUser({
      email: `m-${randomBase62(6)}@example.com`,
      password: "a-long-password",
      workspaceId: ws.workspace.id,
      role: "MEMBER",
    });
    const actor = { userId: owner.id, workspaceId: ws.workspace.id, role: "OWNER" as const };
    await changeMemberRole(actor, { userId: member.id, role: "ADMIN" });
    await expect(removeMember(actor, owner.id)).rejects.toMatchObject({ code: "CONFLICT" });
    await removeMember(actor, member.id);
    const rows = await entries(ws.workspace.id);
    expect(rows.map((row) => [row.action, row.actorId, row.targetId, row.before, row.after])).toEqual([
      ["member.role_change", owner.id, member.id, { role: "MEMBER" }, { role: "ADMIN" }],
      ["member.remove", owner.id, member.id, { role: "ADMIN" }, null],
    ]);
  });
});

describe("retention", () => {
  it("purges entries older than AUDIT_RETENTION_DAYS (365 by default) and keeps the rest", async () => {
    const ws = await createTestWorkspace();
    const db = await getDb();
    await db.transaction((tx) =>
      recordAudit(tx, {
        workspaceId: ws.workspace.id,
        actor: ada,
        action: "test.old",
        target: { type: "test", id: null },
      }),
    );
    await db
      .update(auditEvents)
      .set({ createdAt: new Date(Date.now() - 366 * 86_400_000) })
      .where(eq(auditEvents.action, "test.old"));
    await db.transaction((tx) =>
      recordAudit(tx, {
        workspaceId: ws.workspace.id,
        actor: ada,
        action: "test.recent",
        target: { type: "test", id: null },
      }),
    );
    const { purged } = await purgeOldAuditEvents();
    expect(purged).toBeGreaterThanOrEqual(1);
    expect((await entries(ws.workspace.id)).map((row) => row.action)).toEqual(["test.recent"]);
  });
});
