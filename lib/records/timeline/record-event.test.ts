import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessageLogs, emailMessages } from "@/db/schema/index";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { recordEvent } from "./record-event";

const insertMessage = (workspaceId: string) =>
  insertTestMessage(workspaceId, { to: ["a@example.com"], from: "hello@example.com", subject: "s" });

describe("recordEvent", () => {
  it("moves timestamps order-tolerantly and never moves status backwards", async () => {
    const { workspace } = await createTestWorkspace();
    const db = await getDb();
    const messageId = await insertMessage(workspace.id);
    const base = { workspaceId: workspace.id, messageId };
    const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

    await recordEvent(db, { ...base, code: "EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT", message: "c", at: t(30) });
    await recordEvent(db, { ...base, code: "EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT", message: "c", at: t(10) });
    await recordEvent(db, { ...base, code: "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT", message: "d", at: t(5) });
    await recordEvent(db, { ...base, code: "EMAIL_MESSAGE_OPEN_PROVIDER_EVENT", message: "o", at: t(1), bot: true });

    const [row] = await db.select().from(emailMessages).where(eq(emailMessages.id, messageId));
    expect(row.status).toBe("SUCCEEDED");
    expect(row.firstClickedAt?.toISOString()).toBe(t(10).toISOString());
    expect(row.lastClickedAt?.toISOString()).toBe(t(30).toISOString());
    expect(row.deliveredAt?.toISOString()).toBe(t(5).toISOString());
    expect(row.firstOpenedAt).toBeNull();

    await recordEvent(db, { ...base, code: "EMAIL_MESSAGE_INVALID_SENDER_ERROR", message: "e", at: t(40) });
    const [failed] = await db.select().from(emailMessages).where(eq(emailMessages.id, messageId));
    expect(failed.status).toBe("FAILED");
    expect(failed.erroredAt?.toISOString()).toBe(t(40).toISOString());
  });

  it("records the same provider event once", async () => {
    const { workspace } = await createTestWorkspace();
    const db = await getDb();
    const messageId = await insertMessage(workspace.id);
    const event = {
      workspaceId: workspace.id,
      messageId,
      code: "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT" as const,
      message: "Delivered",
      providerEventId: "evt_1",
    };
    expect(await recordEvent(db, event)).toBe(true);
    expect(await recordEvent(db, event)).toBe(false);
    const logs = await db.select().from(emailMessageLogs).where(eq(emailMessageLogs.emailMessageId, messageId));
    expect(logs).toHaveLength(1);
  });
});
