import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages, webhookEvents, workspaces } from "@/db/schema";
import { collectScrapeGauges } from "@/lib/entry/observability/collect-metrics";
import { buildPayloadObjects } from "@/lib/flows/webhooks/build-payloads";
import { metrics } from "@/lib/foundation/metrics/metrics";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { checkAutoPause } from "./check-auto-pause";
import { DELIVERABILITY_WARNING_EVENT, deliverabilityWarningFor } from "./deliverability-warning";
import { getSendingState } from "./get-sending-state";
import { resumeSending } from "./resume-sending";

afterEach(() =>
  useSettings({
    AUTO_PAUSE_COMPLAINT_RATE: undefined,
    AUTO_PAUSE_BOUNCE_RATE: undefined,
    AUTO_PAUSE_MIN_MESSAGES: undefined,
  }),
);

/** 100 live messages handed over; the first `complained` of them with a complaint. */
async function sentMessages(workspaceId: string, complained: number) {
  const sentAt = new Date(Date.now() - 60_000);
  const ids: string[] = [];
  for (let n = 0; n < 100; n++)
    ids.push(
      await insertTestMessage(workspaceId, {
        status: "SUCCEEDED",
        sentAt,
        firstComplainedAt: n < complained ? sentAt : null,
        createdAt: new Date(sentAt.getTime() + n),
      }),
    );
  return ids;
}

const warningEvents = async (workspaceId: string) =>
  (await getDb())
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.workspaceId, workspaceId), eq(webhookEvents.type, DELIVERABILITY_WARNING_EVENT)));

describe("the deliverability warning at half the pause thresholds", () => {
  it("words the crossing: complaints or bounces past half the threshold, never below the minimum of messages", () => {
    expect(deliverabilityWarningFor({ sent: 1000, bounced: 0, complained: 1 })?.reason).toBe(
      "The complaint rate is 0.1% over the last 1,000 live messages, past half the 0.1% at which sending pauses automatically.",
    );
    expect(deliverabilityWarningFor({ sent: 2000, bounced: 0, complained: 1 })).toBeNull();
    expect(deliverabilityWarningFor({ sent: 1000, bounced: 51, complained: 0 })?.data).toMatchObject({
      kind: "bounce",
      warnAt: 0.05,
      pauseAt: 0.1,
    });
    expect(deliverabilityWarningFor({ sent: 99, bounced: 0, complained: 5 })).toBeNull();
  });

  it("raised once with its webhook event, shown in the sending state and the metric; kept through a pause, cleared by a resume", async () => {
    // Warn above 1 %, pause above 2 %: two complaints in 100 warn, a third pauses.
    useSettings({ AUTO_PAUSE_COMPLAINT_RATE: "0.02" });
    const { workspace } = await createTestWorkspace();
    const ids = await sentMessages(workspace.id, 2);
    expect(await checkAutoPause({ workspaceId: workspace.id })).toMatchObject({ paused: false, complained: 2 });
    const state = await getSendingState(workspace.id);
    expect(state.warning).toBe(
      "The complaint rate is 2% over the last 100 live messages, past half the 2% at which sending pauses automatically.",
    );
    expect(state.warningAt).toBeInstanceOf(Date);
    const [event] = await warningEvents(workspace.id);
    const payload = (await buildPayloadObjects(await getDb(), [event])).get(event.id);
    expect(payload).toEqual({
      id: event.id,
      type: "workspace.deliverability_warning",
      createdAt: event.createdAt.toISOString(),
      data: {
        workspaceId: workspace.id,
        reason: state.warning,
        kind: "complaint",
        rate: 0.02,
        warnAt: 0.01,
        pauseAt: 0.02,
        sent: 100,
        bounced: 0,
        complained: 2,
      },
    });
    await collectScrapeGauges();
    expect((await metrics().warnedWorkspaces.get()).values[0].value).toBeGreaterThanOrEqual(1);

    // Checked again at the same rates: no second event.
    await checkAutoPause({ workspaceId: workspace.id });
    expect(await warningEvents(workspace.id)).toHaveLength(1);

    const db = await getDb();
    await db.update(emailMessages).set({ firstComplainedAt: new Date() }).where(eq(emailMessages.id, ids[50]));
    expect(await checkAutoPause({ workspaceId: workspace.id })).toMatchObject({ paused: true });
    expect((await getSendingState(workspace.id)).warning).toBe(state.warning);

    await resumeSending({ workspaceId: workspace.id, actor: AUDIT_SYSTEM_ACTOR });
    const [row] = await db.select().from(workspaces).where(eq(workspaces.id, workspace.id));
    expect([row.deliverabilityWarning, row.deliverabilityWarningAt]).toEqual([null, null]);
    // Complaints from before the resume do not count: nothing to warn about.
    await checkAutoPause({ workspaceId: workspace.id });
    expect((await getSendingState(workspace.id)).warning).toBeNull();
    expect(await warningEvents(workspace.id)).toHaveLength(1);
  });

  it("cleared when the rates fall back under half the threshold", async () => {
    useSettings({ AUTO_PAUSE_COMPLAINT_RATE: "0.02" });
    const { workspace } = await createTestWorkspace();
    const ids = await sentMessages(workspace.id, 2);
    await checkAutoPause({ workspaceId: workspace.id });
    expect((await getSendingState(workspace.id)).warning).not.toBeNull();
    await (await getDb()).update(emailMessages).set({ firstComplainedAt: null }).where(eq(emailMessages.id, ids[1]));
    await checkAutoPause({ workspaceId: workspace.id });
    expect((await getSendingState(workspace.id)).warning).toBeNull();
  });
});
