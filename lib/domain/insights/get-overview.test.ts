import { describe, expect, it } from "vitest";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { getOverview, overviewSince } from "./get-overview";
import { listRecentProblems } from "./list-recent-problems";
import { rates } from "./metrics.shared";

const now = new Date("2026-03-20T15:30:00.000Z");
const at = (iso: string) => new Date(iso);

describe("getOverview", () => {
  it("starts the window at midnight UTC 13 days before today", () => {
    expect(overviewSince(now).toISOString()).toBe("2026-03-07T00:00:00.000Z");
  });

  it("counts each metric per UTC creation day, live and sandbox apart, only in the window and the workspace", async () => {
    const { workspace } = await createTestWorkspace();
    const { workspace: other } = await createTestWorkspace();
    const sent = { status: "SUCCEEDED" as const, sentAt: at("2026-03-20T10:00:01Z") };
    // Today: one delivered, opened and clicked; one bounced; one failed; one sandbox.
    await insertTestMessage(workspace.id, {
      ...sent,
      createdAt: at("2026-03-20T10:00:00Z"),
      deliveredAt: at("2026-03-20T10:00:02Z"),
      firstOpenedAt: at("2026-03-20T11:00:00Z"),
      firstClickedAt: at("2026-03-20T11:00:05Z"),
    });
    await insertTestMessage(workspace.id, {
      ...sent,
      createdAt: at("2026-03-20T00:00:00Z"),
      firstBouncedAt: at("2026-03-20T10:00:03Z"),
    });
    await insertTestMessage(workspace.id, {
      status: "FAILED",
      createdAt: at("2026-03-20T09:00:00Z"),
      erroredAt: at("2026-03-20T09:00:01Z"),
    });
    await insertTestMessage(workspace.id, {
      ...sent,
      sandbox: true,
      source: "SANDBOX_API",
      createdAt: at("2026-03-20T12:00:00Z"),
    });
    // First day of the window (its first millisecond), and a complaint.
    await insertTestMessage(workspace.id, {
      ...sent,
      createdAt: at("2026-03-07T00:00:00Z"),
      deliveredAt: at("2026-03-07T00:00:01Z"),
      firstComplainedAt: at("2026-03-08T00:00:00Z"),
    });
    // Outside: the day before the window, and another workspace.
    await insertTestMessage(workspace.id, { ...sent, createdAt: at("2026-03-06T23:59:59.999Z") });
    await insertTestMessage(other.id, { ...sent, createdAt: at("2026-03-20T10:00:00Z") });

    const overview = await getOverview(workspace.id, now);
    expect(overview.days).toHaveLength(14);
    expect(overview.days[0].date).toBe("2026-03-07");
    expect(overview.days[13].date).toBe("2026-03-20");
    expect(overview.messages).toBe(5);
    expect(overview.days[13].live).toEqual({
      accepted: 3,
      sent: 2,
      delivered: 1,
      opened: 1,
      clicked: 1,
      bounced: 1,
      complained: 0,
      failed: 1,
    });
    expect(overview.days[13].sandbox).toEqual({
      accepted: 1,
      sent: 1,
      delivered: 0,
      opened: 0,
      clicked: 0,
      bounced: 0,
      complained: 0,
      failed: 0,
    });
    expect(overview.days[0].live).toEqual({
      accepted: 1,
      sent: 1,
      delivered: 1,
      opened: 0,
      clicked: 0,
      bounced: 0,
      complained: 1,
      failed: 0,
    });
    expect(overview.days.slice(1, 13).every((day) => day.live.sent === 0 && day.sandbox.sent === 0)).toBe(true);
    expect(overview.totals.live).toEqual({
      accepted: 4,
      sent: 3,
      delivered: 2,
      opened: 1,
      clicked: 1,
      bounced: 1,
      complained: 1,
      failed: 1,
    });
    expect(rates(overview.totals.live)).toEqual({ delivery: 2 / 3, open: 0.5, click: 0.5, bounce: 1 / 3 });
  });

  it("is all zeros for a new workspace, with no rates", async () => {
    const { workspace } = await createTestWorkspace();
    const overview = await getOverview(workspace.id, now);
    expect(overview.messages).toBe(0);
    expect(overview.days.map((day) => day.live.sent + day.sandbox.sent)).toEqual(Array(14).fill(0));
    expect(rates(overview.totals.live)).toEqual({ delivery: null, open: null, click: null, bounce: null });
  });
});

describe("listRecentProblems", () => {
  it("lists the workspace's failures and bounces in the window, newest problem first", async () => {
    const { workspace } = await createTestWorkspace();
    const { workspace: other } = await createTestWorkspace();
    const since = overviewSince(now);
    const failed = await insertTestMessage(workspace.id, {
      status: "FAILED",
      subject: "failed",
      createdAt: at("2026-03-19T09:00:00Z"),
      erroredAt: at("2026-03-19T09:00:01Z"),
    });
    const bounced = await insertTestMessage(workspace.id, {
      status: "SUCCEEDED",
      subject: "bounced",
      createdAt: at("2026-03-18T09:00:00Z"),
      firstBouncedAt: at("2026-03-20T08:00:00Z"),
    });
    await insertTestMessage(workspace.id, {
      status: "SUCCEEDED",
      subject: "fine",
      createdAt: at("2026-03-20T09:00:00Z"),
    });
    await insertTestMessage(workspace.id, {
      status: "FAILED",
      subject: "too old",
      createdAt: at("2026-03-01T09:00:00Z"),
      erroredAt: at("2026-03-01T09:00:01Z"),
    });
    await insertTestMessage(other.id, {
      status: "FAILED",
      subject: "someone else's",
      createdAt: at("2026-03-20T09:00:00Z"),
      erroredAt: at("2026-03-20T09:00:01Z"),
    });

    const problems = await listRecentProblems(workspace.id, { since, bounces: true });
    expect(problems.map((problem) => [problem.id, problem.kind, problem.subject])).toEqual([
      [bounced, "BOUNCED", "bounced"],
      [failed, "FAILED", "failed"],
    ]);
    expect(problems[1].at).toEqual(at("2026-03-19T09:00:01Z"));
    // Told the window holds no bounces, it does not look for them.
    expect((await listRecentProblems(workspace.id, { since, bounces: false })).map((problem) => problem.kind)).toEqual([
      "FAILED",
    ]);
  });
});
