import { describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { apiAuditEntries, expectRefusal, scopedAuthorization } from "@/lib/testing/management";
import { ensureSystemWorkspace, SYSTEM_WORKSPACE_ID } from "@/lib/domain/workspaces/system-workspace";
import { POST as sendMessage } from "../email_messages/handlers";
import { POST as pause } from "./pause/handlers";
import { POST as resume } from "./resume/handlers";
import { GET as read, PATCH as update } from "./handlers";

const raw = { from: "Acme <hello@example.com>", to: "ann@example.org", subject: "Hi", bodyHtml: "<p>Hi</p>" };

describe("/v1/workspace", () => {
  it("reads and updates settings, pauses and resumes sending; only what changed is audited, as the key", async () => {
    const ws = await createTestWorkspace({ name: "Acme" });
    const auth = { authorization: await scopedAuthorization(ws.workspace.id, ["workspace:write"]) };
    const initial = await callRoute(read, "/api/v1/workspace", auth);
    expect(initial.json.data).toEqual({
      id: ws.workspace.id,
      type: "Workspace",
      name: "Acme",
      testMode: false,
      trackingEnabled: false,
      defaultLocale: null,
      bodyRetentionDays: null,
      metadataRetentionDays: null,
      legalHold: false,
      legalHoldAt: null,
      retention: { bodyDays: 30, metadataDays: 3650, maxBodyDays: 365, maxMetadataDays: 3650 },
      system: false,
      sending: {
        paused: false,
        reason: null,
        pausedAt: null,
        automatic: false,
        pausedMessages: 0,
        warning: null,
        warningAt: null,
      },
    });
    const changed = await callRoute(update, "/api/v1/workspace", {
      ...auth,
      method: "PATCH",
      body: { name: " Acme EU ", trackingEnabled: true, testMode: false },
    });
    expect(changed.json.data).toMatchObject({ name: "Acme EU", trackingEnabled: true, testMode: false });
    const paused = await callRoute(pause, "/api/v1/workspace/pause", { ...auth, body: { reason: "Migrating DNS" } });
    expect(paused.json.data.sending).toMatchObject({ paused: true, reason: "Migrating DNS", automatic: false });
    expect(
      (await callRoute(sendMessage, "/api/v1/email_messages", { authorization: ws.authorization, body: raw })).json.data
        .status,
    ).toBe("PAUSED");
    expect((await callRoute(read, "/api/v1/workspace", auth)).json.data.sending.pausedMessages).toBe(1);
    const resumed = await callRoute(resume, "/api/v1/workspace/resume", { ...auth, method: "POST" });
    expect(resumed.json.data).toMatchObject({ resumed: 1, sending: { paused: false, pausedMessages: 0 } });
    const entries = await apiAuditEntries(ws.workspace.id);
    expect(entries.map((e) => e.action)).toEqual(["workspace.update", "workspace.pause", "workspace.resume"]);
    expect(entries[0].before).toEqual({ name: "Acme", trackingEnabled: false });
    expect(entries[0].after).toEqual({ name: "Acme EU", trackingEnabled: true });
  });

  it("refuses bad fields naming them, the system workspace's test mode, and a key without workspace:write (403), writing nothing", async () => {
    const ws = await createTestWorkspace({ name: "Acme" });
    const auth = { authorization: ws.authorization };
    const cases: Array<[unknown, string]> = [
      [{ name: "" }, "name"],
      [{ name: "x".repeat(101) }, "name"],
      [{ testMode: "yes" }, "testMode"],
      [{ trackingEnabled: 1 }, "trackingEnabled"],
      [{ defaultLocale: "en--" }, "defaultLocale"],
      [{ defaultLocale: "not a tag" }, "defaultLocale"],
      [{ defaultLocale: "" }, "defaultLocale"],
      [{ defaultLocale: 42 }, "defaultLocale"],
    ];
    for (const [body, param] of cases)
      await expectRefusal(
        ws.workspace.id,
        update,
        "/api/v1/workspace",
        { ...auth, method: "PATCH", body },
        { status: 400, param },
      );
    await expectRefusal(
      ws.workspace.id,
      pause,
      "/api/v1/workspace/pause",
      { ...auth, body: { reason: 42 } },
      { status: 400, param: "reason" },
    );
    await ensureSystemWorkspace();
    const systemAuth = { authorization: await scopedAuthorization(SYSTEM_WORKSPACE_ID, ["workspace:write"]) };
    await expectRefusal(
      SYSTEM_WORKSPACE_ID,
      update,
      "/api/v1/workspace",
      { ...systemAuth, method: "PATCH", body: { testMode: true } },
      { status: 400, param: "testMode" },
    );
    const sendOnly = { authorization: await scopedAuthorization(ws.workspace.id, ["emails:send", "keys:write"]) };
    for (const [handler, method, body] of [
      [read, "GET"],
      [update, "PATCH", { name: "Hijacked" }],
      [pause, "POST", {}],
      [resume, "POST"],
    ] as const) {
      const answer = await expectRefusal(
        ws.workspace.id,
        handler,
        "/api/v1/workspace",
        { ...sendOnly, method, body },
        { status: 403, code: "FORBIDDEN" },
      );
      expect(answer.json.error.message).toContain("workspace:write");
    }
    expect((await callRoute(read, "/api/v1/workspace", auth)).json.data).toMatchObject({
      name: "Acme",
      defaultLocale: null,
      sending: { paused: false },
    });
  });

  it("sets the default locale canonicalised, clears it with null, and audits each change", async () => {
    const ws = await createTestWorkspace({ name: "Acme" });
    const auth = { authorization: await scopedAuthorization(ws.workspace.id, ["workspace:write"]) };
    const patch = (body: unknown) => callRoute(update, "/api/v1/workspace", { ...auth, method: "PATCH", body });
    expect((await patch({ defaultLocale: " fr_ca " })).json.data.defaultLocale).toBe("fr-CA");
    expect((await callRoute(read, "/api/v1/workspace", auth)).json.data.defaultLocale).toBe("fr-CA");
    // The same tag again changes nothing, so nothing is audited; another field leaves the locale as it was.
    expect((await patch({ defaultLocale: "FR-ca", name: "Acme FR" })).json.data).toMatchObject({
      name: "Acme FR",
      defaultLocale: "fr-CA",
    });
    expect((await patch({ defaultLocale: null })).json.data.defaultLocale).toBeNull();
    const entries = await apiAuditEntries(ws.workspace.id);
    expect(entries.map((e) => [e.action, e.before, e.after])).toEqual([
      ["workspace.update", { defaultLocale: null }, { defaultLocale: "fr-CA" }],
      ["workspace.update", { name: "Acme" }, { name: "Acme FR" }],
      ["workspace.update", { defaultLocale: "fr-CA" }, { defaultLocale: null }],
    ]);
  });
});
