import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { FirstSend } from "@/components/insights/first-send";
import { OverviewChart } from "@/components/insights/overview-chart";
import { OverviewTiles } from "@/components/insights/overview-tiles";
import { RecentProblems } from "@/components/insights/recent-problems";
import { MessageTable } from "@/components/messages/message-table";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { env } from "@/lib/foundation/env";
import { getOverview } from "@/lib/domain/insights/get-overview";
import { listRecentProblems } from "@/lib/domain/insights/list-recent-problems";
import { listRecentMessages } from "@/lib/domain/messages/list-recent-messages";
import { listTemplateNames } from "@/lib/domain/templates/list-template-names";
import { getWorkspaceSettings } from "@/lib/domain/workspaces/update-workspace-settings";
import { requireDashboard } from "@/app/_lib/dashboard-context";

export const metadata: Metadata = { title: "Overview" };

const LATEST_MESSAGES = 8;

// The workspace at a glance: 14-day counts and rates, a chart per day, recent problems, the latest messages.
export default async function OverviewPage() {
  await connection();
  const { workspace } = await requireDashboard();
  const overview = await getOverview(workspace.id);
  const [problems, latest] = await Promise.all([
    listRecentProblems(workspace.id, {
      since: overview.since,
      bounces: overview.totals.live.bounced + overview.totals.sandbox.bounced > 0,
    }),
    listRecentMessages(workspace.id, { limit: LATEST_MESSAGES }),
  ]);
  const templateNames = await listTemplateNames(
    workspace.id,
    latest.map((message) => message.templateId),
  );
  const sandboxMessages = overview.days.reduce((sum, day) => sum + day.sandbox.accepted, 0);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Overview"
        description={`Last 14 days (UTC) since ${overview.since.toISOString().slice(0, 10)}; each message counts on the day it was created.`}
      />
      {overview.messages === 0 ? (
        <FirstSend
          appUrl={env().APP_URL}
          deliveryProvider={env().DELIVERY_PROVIDER}
          testMode={(await getWorkspaceSettings(workspace.id)).testMode}
        />
      ) : (
        <>
          <section aria-labelledby="totals-title" className="space-y-2">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 id="totals-title" className="text-sm font-semibold text-slate-900">
                Live messages
              </h2>
              <p className="text-xs text-slate-500" data-testid="sandbox-summary">
                Sandbox: {sandboxMessages.toLocaleString("en")} rendered, never delivered (not in these totals)
              </p>
            </div>
            <OverviewTiles totals={overview.totals.live} />
          </section>
          <Card
            title="Per day"
            id="per-day"
            description="Accepted, sent, delivered, opened, clicked, bounced, complained and failed messages, by creation day."
          >
            <OverviewChart days={overview.days} />
          </Card>
          <Card
            title="Recent problems"
            id="problems"
            description="The latest failures and bounces of the last 14 days."
          >
            <RecentProblems problems={problems} />
          </Card>
        </>
      )}
      {latest.length > 0 ? (
        <Card
          title="Latest messages"
          id="latest"
          actions={
            <Link href="/emails" className="text-sm text-indigo-600 hover:underline">
              All emails →
            </Link>
          }
        >
          <MessageTable rows={latest} templateNames={templateNames} label="Latest messages, newest first" />
        </Card>
      ) : null}
    </div>
  );
}
