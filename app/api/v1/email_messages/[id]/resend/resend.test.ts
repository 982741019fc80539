import { describe, expect, it } from "vitest";
import { flushActivityLog } from "@/lib/records/activity/record-activity";
import { listActivity } from "@/lib/records/activity/list-activity";
import { eraseMessage } from "@/lib/domain/messages/erase-message";
import { getMessageDetail } from "@/lib/domain/messages/get-message-detail";
import { resendMessage } from "@/lib/sending/resend-message";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { POST as send } from "../../handlers";
import { POST as sandboxSend } from "../../../sandbox/email_messages/handlers";
import { POST as resend } from "./handlers";

const raw = {
  from: "Acme <hello@example.com>",
  to: "Ada <ada@example.org>",
  cc: "cc@example.org",
  subject: "Your receipt",
  bodyHtml: "<p>Thanks</p>",
  metadata: { order: 7 },
  metaId: "order-7",
};

async function setup(handler: unknown = send) {
  const ws = await createTestWorkspace();
  const sent = await callRoute(handler, "/api/v1/email_messages", { authorization: ws.authorization, body: raw });
  expect(sent.status).toBe(201);
  const call = (id: string, body?: unknown, authorization: string | null = ws.authorization) =>
    callRoute(resend, `/api/v1/email_messages/${id}/resend`, { method: "POST", authorization, params: { id }, body });
  return { ws, original: sent.json.data, call };
}

describe("POST /v1/email_messages/:id/resend", () => {
  it("creates a new message with the same content, linked both ways", async () => {
    const { ws, original, call } = await setup();
    const answer = await call(original.id);
    expect(answer.status).toBe(201);
    const copy = answer.json.data;
    expect(copy.id).not.toBe(original.id);
    expect(copy).toMatchObject({
      resentFromId: original.id,
      status: "PENDING",
      source: "API",
      to: original.to,
      cc: original.cc,
      from: original.from,
      subject: "Your receipt",
      metadata: { order: 7 },
      metaId: "order-7",
    });
    const detail = await getMessageDetail(ws.workspace.id, original.id);
    expect(detail!.message.resentAs).toEqual([copy.id]);
    const copyDetail = await getMessageDetail(ws.workspace.id, copy.id);
    expect([copyDetail!.message.resentFromId, copyDetail!.message.bodyHtml]).toEqual([original.id, "<p>Thanks</p>"]);
    await flushActivityLog();
    const activity = await listActivity(ws.workspace.id, {
      limit: 10,
      cursor: null,
      filters: { sandboxOnly: false, errorsOnly: false },
    });
    expect(
      activity.items.some((entry) => entry.path.endsWith(`/${original.id}/resend`) && entry.resourceId === copy.id),
    ).toBe(true);
  });

  it("replays with the same metaId, and a new metaId is a new message", async () => {
    const { original, call } = await setup();
    const first = await call(original.id, { metaId: "resend-1" });
    const again = await call(original.id, { metaId: "resend-1" });
    expect([first.status, again.status, again.headers.get("idempotent-replayed")]).toEqual([201, 200, "true"]);
    expect(again.json.data.id).toBe(first.json.data.id);
    expect(first.json.data.metaId).toBe("resend-1");
    const other = await call(original.id, { metaId: "resend-2" });
    expect([other.status, other.json.data.id === first.json.data.id]).toEqual([201, false]);
  });

  it("refuses erased content and sandbox messages with 409; 401, 404 and 400 as every endpoint", async () => {
    const { ws, original, call } = await setup();
    expect((await call(original.id, undefined, null)).status).toBe(401);
    const other = await createTestWorkspace();
    const foreign = await callRoute(resend, `/api/v1/email_messages/${original.id}/resend`, {
      method: "POST",
      authorization: other.authorization,
      params: { id: original.id },
    });
    expect([foreign.status, foreign.json.error.param]).toEqual([404, "id"]);
    const bad = await call(original.id, { metaId: 7 });
    expect([bad.status, bad.json.error.param]).toEqual([400, "metaId"]);
    await eraseMessage({ workspaceId: ws.workspace.id, messageId: original.id });
    const erased = await call(original.id);
    expect([erased.status, erased.json.error.code, erased.json.error.param]).toEqual([409, "CONFLICT", "id"]);

    const sandbox = await setup(sandboxSend);
    const live = await sandbox.call(sandbox.original.id);
    expect([live.status, live.json.error.code]).toEqual([409, "CONFLICT"]);
    // The dashboard resends in the original's environment: a sandbox copy.
    const copy = await resendMessage({ workspaceId: sandbox.ws.workspace.id, messageId: sandbox.original.id });
    expect([copy.message.sandbox, copy.message.status, copy.message.resentFromId]).toEqual([
      true,
      "SUCCEEDED",
      sandbox.original.id,
    ]);
  });

  it("applies test mode to a live resend, as to any send", async () => {
    const { ws, original, call } = await setup();
    const { getDb } = await import("@/db/client");
    const { workspaces } = await import("@/db/schema");
    const { eq } = await import("drizzle-orm");
    await (await getDb()).update(workspaces).set({ testMode: true }).where(eq(workspaces.id, ws.workspace.id));
    (await import("@/lib/foundation/short-lived-cache")).invalidateShortLivedCaches(); // changed behind the use cases' back
    const refused = await call(original.id);
    expect([refused.status, refused.json.error.code, refused.json.error.param]).toEqual([
      422,
      "EMAIL_MESSAGE_INVALID_TEST_MODE_RECIPIENT_ERROR",
      "to",
    ]);
  });
});
