import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { recordEvent } from "@/lib/records/timeline/record-event";
import type { EventCode } from "@/lib/records/timeline/event-codes.shared";
import { deliveryState } from "./delivery-state.shared";
import { getMessageDetail } from "./get-message-detail";
import { listDashboardMessages } from "./list-dashboard-messages";
import { listRecentMessages } from "./list-recent-messages";
import { MESSAGES_PAGE_SIZE } from "./message-list-query";

const sentAt = new Date(Date.UTC(2026, 10, 1, 12));
const later = (minutes: number) => new Date(sentAt.getTime() + minutes * 60_000);

async function record(workspaceId: string, messageId: string, code: EventCode, at: Date) {
  await (await getDb()).transaction((tx) => recordEvent(tx, { workspaceId, messageId, code, message: code, at }));
}

/** The state each of the dashboard's reads gives the message: the Emails list, the Overview's latest, its page. */
async function statesOf(workspaceId: string, messageId: string) {
  const page = await listDashboardMessages(workspaceId, { limit: MESSAGES_PAGE_SIZE, cursor: null, createdAt: {} });
  if (!page.ok) throw new Error(page.message);
  const listed = page.page.rows.find((row) => row.id === messageId)!;
  const recent = (await listRecentMessages(workspaceId)).find((row) => row.id === messageId)!;
  const detail = (await getMessageDetail(workspaceId, messageId))!.message;
  return [listed, recent, detail].map((row) => ({ status: row.status, state: deliveryState(row).state }));
}

describe("the delivery state of the dashboard's reads, from the timeline's recorded events", () => {
  it("reads Bounced for a hard bounce the API still calls SUCCEEDED, on every read", async () => {
    const { workspace } = await createTestWorkspace();
    const id = await insertTestMessage(workspace.id, { status: "SUCCEEDED", sentAt, createdAt: sentAt });
    await record(workspace.id, id, "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT", later(1));
    expect(await statesOf(workspace.id, id)).toEqual(Array(3).fill({ status: "SUCCEEDED", state: "Delivered" }));
    await record(workspace.id, id, "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT", later(2));
    expect(await statesOf(workspace.id, id)).toEqual(Array(3).fill({ status: "SUCCEEDED", state: "Bounced" }));
  });

  it("moves from Sent through Opened and Clicked, and a complaint outranks them", async () => {
    const { workspace } = await createTestWorkspace();
    const id = await insertTestMessage(workspace.id, { status: "SUCCEEDED", sentAt, createdAt: sentAt });
    expect((await statesOf(workspace.id, id))[0].state).toBe("Sent");
    await record(workspace.id, id, "EMAIL_MESSAGE_OPEN_PROVIDER_EVENT", later(1));
    expect((await statesOf(workspace.id, id))[0].state).toBe("Opened");
    await record(workspace.id, id, "EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT", later(2));
    expect((await statesOf(workspace.id, id))[0].state).toBe("Clicked");
    await record(workspace.id, id, "EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT", later(3));
    expect(await statesOf(workspace.id, id)).toEqual(Array(3).fill({ status: "SUCCEEDED", state: "Complained" }));
  });
});
