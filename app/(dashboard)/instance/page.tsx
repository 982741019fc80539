import type { Metadata } from "next";
import { connection } from "next/server";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { DescriptionList } from "@/components/ui/description-list";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import {
  describeInstance,
  type InstanceDescription,
  type InstanceSetting,
} from "@/lib/entry/observability/describe-instance";
import { plural } from "@/lib/foundation/plural.shared";

export const metadata: Metadata = { title: "Instance" };

const PROVIDERS: Record<InstanceDescription["delivery"]["provider"], string> = {
  local: "Local inbox (nothing leaves this instance)",
  smtp: "SMTP relay",
  resend: "Resend",
  ses: "Amazon SES",
};

const QUEUE_LABELS: Record<string, string> = {
  "deliver-message": "Mail delivery",
  "workflow-step": "Workflow steps",
  maintenance: "Maintenance (hourly)",
  "flag-unconfirmed-deliveries": "Unconfirmed delivery check",
  "deliver-webhook": "Webhook delivery",
  "simulate-outcome": "Simulator outcomes",
};

const yesNo = (on: boolean, yes = "Yes", no = "No") => <Badge tone={on ? "success" : "neutral"}>{on ? yes : no}</Badge>;
const unset = <span className="text-slate-400">Not set</span>;

function settingValue(setting: InstanceSetting) {
  if (setting.kind === "secret") return yesNo(setting.set, "Set (hidden)", "Not set");
  if (setting.value === null || setting.value === "") return unset;
  if (typeof setting.value === "boolean") return yesNo(setting.value);
  return String(setting.value);
}

function duration(seconds: number): string {
  if (seconds < 60) return plural(seconds, "second");
  if (seconds < 3600) return plural(Math.floor(seconds / 60), "minute");
  if (seconds < 86_400) return plural(Math.floor(seconds / 3600), "hour");
  return plural(Math.floor(seconds / 86_400), "day");
}

// The whole instance, not one workspace: owners only (members and admins get the forbidden page).
export default async function InstancePage() {
  await connection();
  await requireDashboard("OWNER");
  const instance = await describeInstance();
  const { database, delivery, workers } = instance;
  return (
    <div>
      <PageHeader
        title="Instance"
        description="How this Postwerk instance is set up and how its workers are doing. Settings come from the server's environment; secrets show only whether they are set."
      />
      <div className="space-y-6">
        <Card title="General" id="general">
          <DescriptionList
            terms="words"
            items={[
              { term: "Version", value: instance.version },
              {
                term: "Database",
                value: database.kind === "pglite" ? "Embedded (PGlite)" : `PostgreSQL, database ${database.database}`,
              },
              database.kind === "pglite"
                ? { term: "Data directory", value: <span className="font-mono text-xs">{database.dataDirectory}</span> }
                : { term: "Database server", value: <span className="font-mono text-xs">{database.host}</span> },
              { term: "Checked at", value: <Timestamp value={new Date(instance.checkedAt)} /> },
            ]}
          />
        </Card>

        <Card title="Delivery" id="delivery" description="Where live mail goes.">
          <DescriptionList
            terms="words"
            items={[
              { term: "Provider", value: PROVIDERS[delivery.provider] },
              ...delivery.settings.map((setting) => ({ term: setting.label, value: settingValue(setting) })),
            ]}
          />
        </Card>

        <Card title="Listeners" id="listeners" description="Ports this instance is configured to listen on.">
          <DescriptionList
            terms="words"
            items={instance.listeners.map((listener) => ({
              term: listener.label,
              value: listener.port === null ? <Badge>Off</Badge> : `Port ${listener.port}`,
            }))}
          />
        </Card>

        <Card
          title="Workers"
          id="workers"
          description="Processes that delivered mail in the last minute, on this database."
        >
          <div className="space-y-4">
            <DescriptionList
              terms="words"
              items={[
                {
                  term: "This server runs a worker",
                  value: workers.runsHere ? `Yes, ${plural(workers.concurrency, "job")} at a time` : yesNo(false),
                },
              ]}
            />
            {workers.seen.length === 0 ? (
              <p className="text-sm text-slate-600">
                No worker has checked in for a minute: mail waits until one runs (RUN_WORKER=true or npm run worker).
              </p>
            ) : (
              <Table label="Workers seen">
                <THead>
                  <Th>Host</Th>
                  <Th>Process id</Th>
                  <Th>Started</Th>
                  <Th>Last seen</Th>
                </THead>
                <TBody>
                  {workers.seen.map((worker) => (
                    <tr key={`${worker.hostname}:${worker.pid}`}>
                      <Td className="font-mono text-xs">{worker.hostname}</Td>
                      <Td className="font-mono text-xs">{worker.pid}</Td>
                      <Td>
                        <Timestamp value={new Date(worker.startedAt)} />
                      </Td>
                      <Td>
                        <Timestamp value={new Date(worker.lastSeenAt)} />
                      </Td>
                    </tr>
                  ))}
                </TBody>
              </Table>
            )}
          </div>
        </Card>

        <Card title="Queues" id="queues" description="Jobs whose time has come and that no worker has taken yet.">
          <Table label="Queues">
            <THead>
              <Th>Queue</Th>
              <Th>Waiting</Th>
              <Th>Next job waiting for</Th>
            </THead>
            <TBody>
              {instance.queues.map((queue) => (
                <tr key={queue.name}>
                  <Td>{QUEUE_LABELS[queue.name] ?? queue.name}</Td>
                  <Td>
                    {queue.waiting.toLocaleString("en-US")}
                    {queue.waitingAtLeast ? " or more" : ""}
                  </Td>
                  <Td>{queue.waiting === 0 ? "—" : duration(queue.oldestWaitingSeconds)}</Td>
                </tr>
              ))}
            </TBody>
          </Table>
        </Card>

        <Card title="Webhooks, metrics and retention" id="other">
          <DescriptionList
            terms="words"
            items={[
              { term: "Webhooks to plain http://", value: yesNo(instance.webhooks.allowHttp, "Allowed", "Refused") },
              {
                term: "Webhooks to private addresses",
                value: yesNo(instance.webhooks.allowPrivate, "Allowed", "Refused"),
              },
              {
                term: "Local receivers, for development (both of the above)",
                value: yesNo(instance.webhooks.allowLocal, "Allowed", "Refused"),
              },
              {
                term: "Prometheus metrics",
                value: instance.metrics.on ? yesNo(true, "On, token set") : yesNo(false, "", "Off (no token)"),
              },
              {
                term: "OpenTelemetry traces (this process)",
                value: instance.tracing.on
                  ? yesNo(true, `On, sampler ${instance.tracing.sampler}`)
                  : yesNo(false, "", "Off (no OTLP endpoint)"),
              },
              { term: "Message bodies kept for", value: plural(instance.retention.messageBodiesDays, "day") },
              { term: "Attachments kept for", value: plural(instance.retention.attachmentsDays, "day") },
              { term: "Activity kept for", value: plural(instance.retention.activityDays, "day") },
              { term: "Audit log kept for", value: plural(instance.retention.auditDays, "day") },
              { term: "Webhook attempts kept for", value: plural(instance.retention.webhookLogDays, "day") },
            ]}
          />
        </Card>
      </div>
    </div>
  );
}
