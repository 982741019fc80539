import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { useSettings } from "@/lib/testing/settings";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { POST as send } from "@/app/api/v1/email_messages/handlers";
import { addDays, dayStart, daySuffix } from "./bounds";
import { maintainPartitions } from "./maintain-partitions";

const today = dayStart(new Date());
const windows = { bodyRetentionDays: 1, metadataRetentionDays: 7 };

afterEach(() => useSettings({ RATE_LIMIT_PER_SECOND: undefined }));

// Only a server runs sends and partition changes at once (the embedded database has one connection).
describe.skipIf(!process.env.DATABASE_URL)("partition changes while mail is sent", { timeout: 120_000 }, () => {
  it("creates and drops days while four senders send: every send is accepted, every day dropped", async () => {
    useSettings({ RATE_LIMIT_PER_SECOND: "0" });
    const db = await getDb();
    await maintainPartitions({ now: new Date() });
    const old = await createTestWorkspace();
    const senders = await createTestWorkspace();
    await db.update(workspaces).set(windows).where(eq(workspaces.id, old.workspace.id));
    // The senders' mail of today stays (legal hold): the changes are the old days' and the new days'.
    await db
      .update(workspaces)
      .set({ ...windows, legalHold: true, legalHoldAt: new Date() })
      .where(eq(workspaces.id, senders.workspace.id));
    const days = [3, 4, 5, 6, 7];
    for (const day of days)
      for (let i = 0; i < 20; i++) {
        const createdAt = new Date(addDays(today, day).getTime() + i * 60_000);
        const messageId = await insertTestMessage(old.workspace.id, { createdAt, status: "SUCCEEDED" });
        await recordEvent(db, {
          workspaceId: old.workspace.id,
          messageId,
          code: "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
          message: "Sent.",
          at: createdAt,
        });
      }

    const answers: number[] = [];
    let changing = true;
    const sender = async (n: number) => {
      for (let i = 0; changing; i++) {
        const sent = await callRoute(send, "/api/v1/email_messages", {
          authorization: senders.authorization,
          body: {
            from: "Acme <hello@example.com>",
            to: `r${n}-${i}@example.org`,
            subject: "Hi",
            bodyHtml: "<p>Hi</p>",
          },
        });
        answers.push(sent.status);
      }
    };
    const changes = (async () => {
      const dropped: string[] = [];
      try {
        // A day at a time, each run also creating the days ahead of its clock.
        for (const day of days) {
          const { dropped: now } = await maintainPartitions({ now: addDays(today, day + 9) });
          dropped.push(...now);
        }
      } finally {
        changing = false;
      }
      return dropped;
    })();
    const [dropped] = await Promise.all([changes, ...[1, 2, 3, 4].map(sender)]);

    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((status) => status !== 201)).toEqual([]);
    for (const day of days) expect(dropped).toContain(`email_messages_${daySuffix(addDays(today, day))}`);
  });
});
