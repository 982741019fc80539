import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb, getDbHandle } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { recordEvents } from "@/lib/records/timeline/record-events";
import { newId } from "@/lib/foundation/ids";
import { getOverview, overviewDirectQuery, overviewFromRows, overviewSince } from "./get-overview";
import { compactOverviewShards } from "./compact-overview-shards";

const now = new Date();
const daysAgo = (days: number, hours = 10) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - days, hours));

/** What email_messages says right now, counted directly: what the rollups must equal. */
async function direct(workspaceId: string) {
  const since = overviewSince(now);
  return overviewFromRows(since, await overviewDirectQuery(await getDb(), workspaceId, since));
}

async function expectRollupsEqualDirect(workspaceId: string) {
  const [rolled, counted] = [await getOverview(workspaceId, now), await direct(workspaceId)];
  expect(rolled).toEqual(counted);
  return rolled;
}

describe("overview_day_counts (the Overview's rollups)", () => {
  it("equal a direct count through inserts, events on old messages, status moves and bots", async () => {
    const { workspace } = await createTestWorkspace();
    const ids: string[] = [];
    for (let day = 0; day < 16; day++) {
      ids.push(
        await insertTestMessage(workspace.id, {
          createdAt: daysAgo(day),
          sandbox: day % 5 === 0,
          source: day % 5 === 0 ? "SANDBOX_API" : "API",
        }),
      );
    }
    // A batch-shaped insert: many rows, several days, one statement.
    await (await getDb()).insert(emailMessages).values(
      Array.from({ length: 30 }, (_, index) => ({
        id: newId("message", daysAgo(index % 3)),
        workspaceId: workspace.id,
        source: "BATCH" as const,
        sandbox: false,
        status: "PENDING" as const,
        to: ["a@example.org"],
        from: "hello@example.com",
        subject: "batch",
        bodyHtml: "<p>x</p>",
        bodyText: "x",
        createdAt: daysAgo(index % 3),
      })),
    );
    const first = await expectRollupsEqualDirect(workspace.id);
    expect(first.messages).toBe(14 + 30);

    const db = await getDb();
    // Late-arriving events: a 12-day-old message is delivered, opened and clicked today.
    for (const code of [
      "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
      "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
      "EMAIL_MESSAGE_OPEN_PROVIDER_EVENT",
      "EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT",
    ] as const) {
      await recordEvent(db, { workspaceId: workspace.id, messageId: ids[12], code, message: code });
    }
    // A second open moves no count; a bot click moves no timestamp.
    await recordEvent(db, {
      workspaceId: workspace.id,
      messageId: ids[12],
      code: "EMAIL_MESSAGE_OPEN_PROVIDER_EVENT",
      message: "again",
    });
    await recordEvent(db, {
      workspaceId: workspace.id,
      messageId: ids[3],
      code: "EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT",
      message: "scanner",
      bot: true,
    });
    // The group commit of provider events: several messages and codes in one statement.
    await recordEvents(db, [
      { workspaceId: workspace.id, messageId: ids[1], code: "EMAIL_MESSAGE_SENT_PROVIDER_EVENT", message: "sent" },
      { workspaceId: workspace.id, messageId: ids[1], code: "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT", message: "bounced" },
      {
        workspaceId: workspace.id,
        messageId: ids[2],
        code: "EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT",
        message: "complained",
      },
      { workspaceId: workspace.id, messageId: ids[4], code: "EMAIL_MESSAGE_PROVIDER_ERROR", message: "failed" },
      {
        workspaceId: workspace.id,
        messageId: ids[5],
        code: "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
        message: "delivered (sandbox)",
      },
    ]);
    // An update that changes no count (erasing content) writes no rollup change.
    await db.update(emailMessages).set({ bodyHtml: "", status: "DELETED" }).where(eq(emailMessages.id, ids[6]));
    const after = await expectRollupsEqualDirect(workspace.id);
    expect(after.totals.live).toMatchObject({ opened: 1, clicked: 1, bounced: 1, complained: 1, failed: 1 });
    expect(after.totals.sandbox.delivered).toBe(1);

    // Folding the shards of past days changes no figure.
    await compactOverviewShards(now);
    await expectRollupsEqualDirect(workspace.id);
  });

  it("count a transaction that commits late into its own (past) day, and nothing of one rolled back", async () => {
    const { workspace } = await createTestWorkspace();
    const db = await getDb();
    await db
      .transaction(async (tx) => {
        await tx.insert(emailMessages).values({
          id: newId("message"),
          workspaceId: workspace.id,
          source: "API",
          sandbox: false,
          status: "PENDING",
          to: [],
          from: "a@example.com",
          subject: "x",
          bodyHtml: "",
          bodyText: "",
          createdAt: daysAgo(1),
        });
        throw new Error("roll back");
      })
      .catch(() => {});
    expect((await expectRollupsEqualDirect(workspace.id)).messages).toBe(0);
    // Created (stamped) yesterday, committed only after today's messages: still yesterday's.
    await insertTestMessage(workspace.id, { createdAt: daysAgo(0) });
    await db.transaction(async (tx) => {
      await tx.insert(emailMessages).values({
        id: newId("message"),
        workspaceId: workspace.id,
        source: "API",
        sandbox: false,
        status: "PENDING",
        to: [],
        from: "a@example.com",
        subject: "late",
        bodyHtml: "",
        bodyText: "",
        createdAt: daysAgo(1, 23),
      });
    });
    const overview = await expectRollupsEqualDirect(workspace.id);
    expect(overview.days[12].live.accepted).toBe(1);
  });

  it("let concurrent transactions of one workspace count without waiting for each other (PostgreSQL)", async () => {
    const handle = await getDbHandle();
    if (handle.driver !== "postgres") return; // one connection: nothing can run concurrently
    const { workspace } = await createTestWorkspace();
    const db = await getDb();
    // While this transaction holds its (uncommitted) rollup row, a send on another connection must
    // commit: with one shared row it would wait on this transaction, which waits on it: a hang.
    await db.transaction(async (tx) => {
      await insertTestMessage(workspace.id, { createdAt: daysAgo(0) });
      await tx.insert(emailMessages).values({
        id: newId("message"),
        workspaceId: workspace.id,
        source: "API",
        sandbox: false,
        status: "PENDING",
        to: [],
        from: "a@example.com",
        subject: "held",
        bodyHtml: "",
        bodyText: "",
        createdAt: daysAgo(0),
      });
      await Promise.all(Array.from({ length: 4 }, () => insertTestMessage(workspace.id, { createdAt: daysAgo(0) })));
    });
    expect((await expectRollupsEqualDirect(workspace.id)).messages).toBe(6);
  });
});
