import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { recordProviderEvent } from "./record-provider-event";

const saved = { AUTO_PAUSE_MIN_MESSAGES: process.env.AUTO_PAUSE_MIN_MESSAGES };
afterAll(() => useSettings(saved));

describe("recordProviderEvent's automatic pause check", () => {
  it("coalesces the checks of concurrent bounces, yet the last check sees every bounce", async () => {
    useSettings({ AUTO_PAUSE_MIN_MESSAGES: "100" });
    const { workspace } = await createTestWorkspace();
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      ids.push(
        await insertTestMessage(workspace.id, {
          status: "SUCCEEDED",
          sentAt: new Date(),
          to: [`r${i}@example.org`],
          toAddresses: [`r${i}@example.org`],
        }),
      );
    }
    // 11 bounces out of 100 sent passes the 10% threshold only once all 11 are counted.
    const results = await Promise.all(
      ids.slice(0, 11).map((messageId, i) =>
        recordProviderEvent(
          { messageId },
          {
            source: "inbound",
            type: "dsn-failed",
            code: "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT",
            message: "Bounced.",
            at: new Date(),
            providerEventId: `test:${i}`,
            details: {},
            suppress: "HARD_BOUNCE",
          },
        ),
      ),
    );
    expect(results.map((result) => result.outcome)).toEqual(Array(11).fill("recorded"));
    const [row] = await (await getDb()).select().from(workspaces).where(eq(workspaces.id, workspace.id));
    expect(row).toMatchObject({ sendingPaused: true, pausedAutomatically: true });
    expect(row.pausedReason).toContain("bounce rate 11% over the last 100 live messages");
  });
});
