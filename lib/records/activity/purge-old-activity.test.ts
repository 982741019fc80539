import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { activityLogs } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { purgeOldActivity } from "./purge-old-activity";

describe("purgeOldActivity", () => {
  it("deletes entries older than the retention (30 days by default) and keeps newer ones", async () => {
    const { workspace } = await createTestWorkspace();
    const db = await getDb();
    const now = new Date("2026-06-30T12:00:00.000Z");
    const entry = (daysAgo: number) => ({
      id: newId("activity"),
      workspaceId: workspace.id,
      method: "POST",
      path: "/api/v1/email_messages",
      status: 201,
      durationMs: 3,
      createdAt: new Date(now.getTime() - daysAgo * 24 * 3600 * 1000),
    });
    await db.insert(activityLogs).values([entry(31), entry(45), entry(29), entry(1)]);
    const { purged } = await purgeOldActivity({ now });
    expect(purged).toBeGreaterThanOrEqual(2);
    const left = await db.select().from(activityLogs).where(eq(activityLogs.workspaceId, workspace.id));
    expect(left).toHaveLength(2);
  });
});
