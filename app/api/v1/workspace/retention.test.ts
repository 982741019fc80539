import { afterEach, describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { apiAuditEntries, expectRefusal, scopedAuthorization } from "@/lib/testing/management";
import { useSettings } from "@/lib/testing/settings";
import { GET as read, PATCH as update } from "./handlers";

const CEILINGS = {
  RETENTION_MAX_BODY_DAYS: undefined,
  RETENTION_MAX_METADATA_DAYS: undefined,
  RETENTION_DAYS: undefined,
};
afterEach(() => useSettings(CEILINGS));

async function workspaceWithKey() {
  const ws = await createTestWorkspace({ name: "Acme" });
  const auth = { authorization: await scopedAuthorization(ws.workspace.id, ["workspace:write"]) };
  const patch = (body: unknown) => callRoute(update, "/api/v1/workspace", { ...auth, method: "PATCH", body });
  return { ws, auth, patch };
}

describe("PATCH /v1/workspace retention (docs/retention.md)", () => {
  it("sets both windows and the legal hold, shows the effective values, resets with null, audits each change", async () => {
    const { ws, auth, patch } = await workspaceWithKey();
    const set = await patch({ bodyRetentionDays: 7, metadataRetentionDays: 90 });
    expect(set.status).toBe(200);
    expect(set.json.data).toMatchObject({
      bodyRetentionDays: 7,
      metadataRetentionDays: 90,
      legalHold: false,
      retention: { bodyDays: 7, metadataDays: 90, maxBodyDays: 365, maxMetadataDays: 3650 },
    });
    const held = await patch({ legalHold: true });
    expect(held.json.data.legalHold).toBe(true);
    expect(Date.parse(held.json.data.legalHoldAt)).not.toBeNaN();
    const again = await patch({ legalHold: true });
    expect(again.json.data.legalHoldAt).toBe(held.json.data.legalHoldAt); // the hold keeps when it began
    const lifted = await patch({ legalHold: false, bodyRetentionDays: null, metadataRetentionDays: null });
    expect(lifted.json.data).toMatchObject({
      bodyRetentionDays: null,
      metadataRetentionDays: null,
      legalHold: false,
      legalHoldAt: null,
      retention: { bodyDays: 30, metadataDays: 3650 },
    });
    expect((await callRoute(read, "/api/v1/workspace", auth)).json.data.retention.bodyDays).toBe(30);
    const entries = await apiAuditEntries(ws.workspace.id);
    expect(entries.map((e) => [e.action, e.before, e.after])).toEqual([
      [
        "workspace.update",
        { bodyRetentionDays: null, metadataRetentionDays: null },
        { bodyRetentionDays: 7, metadataRetentionDays: 90 },
      ],
      [
        "workspace.update",
        { legalHold: false, legalHoldAt: null },
        { legalHold: true, legalHoldAt: expect.any(String) },
      ],
      [
        "workspace.update",
        { bodyRetentionDays: 7, metadataRetentionDays: 90, legalHold: true, legalHoldAt: expect.any(String) },
        { bodyRetentionDays: null, metadataRetentionDays: null, legalHold: false, legalHoldAt: null },
      ],
    ]);
  }, 120_000); // the file's first calls load the route modules: slow on a busy machine, never a timing claim

  it("refuses windows out of range, metadata shorter than bodies and a non-boolean hold, naming the field, writing nothing", async () => {
    const { ws, auth, patch } = await workspaceWithKey();
    await patch({ metadataRetentionDays: 60 });
    const cases: Array<[unknown, string]> = [
      [{ bodyRetentionDays: 0 }, "bodyRetentionDays"],
      [{ bodyRetentionDays: 366 }, "bodyRetentionDays"],
      [{ bodyRetentionDays: 2.5 }, "bodyRetentionDays"],
      [{ bodyRetentionDays: "30" }, "bodyRetentionDays"],
      [{ metadataRetentionDays: 6 }, "metadataRetentionDays"],
      [{ metadataRetentionDays: 3651 }, "metadataRetentionDays"],
      [{ legalHold: "yes" }, "legalHold"],
      // The body default is 30: an explicit metadata window of 20 would be shorter.
      [{ metadataRetentionDays: 20 }, "metadataRetentionDays"],
      // Bodies longer than the stored metadata window (60): the change that broke the rule is named.
      [{ bodyRetentionDays: 61 }, "bodyRetentionDays"],
      [{ bodyRetentionDays: 10, metadataRetentionDays: 9 }, "metadataRetentionDays"],
    ];
    for (const [body, param] of cases)
      await expectRefusal(
        ws.workspace.id,
        update,
        "/api/v1/workspace",
        { ...auth, method: "PATCH", body },
        { status: 400, param },
      );
    expect((await callRoute(read, "/api/v1/workspace", auth)).json.data).toMatchObject({
      bodyRetentionDays: null,
      metadataRetentionDays: 60,
      legalHold: false,
    });
  });

  it("holds every workspace under the instance's ceilings: a longer window is refused, a stored one is capped", async () => {
    const { auth, patch } = await workspaceWithKey();
    await patch({ bodyRetentionDays: 200, metadataRetentionDays: 1000 });
    useSettings({ RETENTION_MAX_BODY_DAYS: "90", RETENTION_MAX_METADATA_DAYS: "365" });
    expect((await callRoute(read, "/api/v1/workspace", auth)).json.data).toMatchObject({
      bodyRetentionDays: 200,
      metadataRetentionDays: 1000,
      retention: { bodyDays: 90, metadataDays: 365, maxBodyDays: 90, maxMetadataDays: 365 },
    });
    const body = await patch({ bodyRetentionDays: 91 });
    expect([body.status, body.json.error.param]).toEqual([400, "bodyRetentionDays"]);
    expect(body.json.error.message).toContain("RETENTION_MAX_BODY_DAYS");
    const metadata = await patch({ metadataRetentionDays: 366 });
    expect([metadata.status, metadata.json.error.param]).toEqual([400, "metadataRetentionDays"]);
    expect((await patch({ bodyRetentionDays: 90, metadataRetentionDays: 365 })).status).toBe(200);
  });
});
