import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { MessageTimeline } from "@/components/messages/message-timeline";
import { StatusBadge } from "@/components/messages/status-badge";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code-block";
import { DescriptionList, type DescriptionItem } from "@/components/ui/description-list";
import { Timestamp } from "@/components/ui/timestamp";
import { getMessageDetail, type MessageDetail } from "@/lib/messages/get-message-detail";
import { requireDashboard } from "@/app/_lib/dashboard-context";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Message ${(await params).id}` };
}

// One message of the API key's workspace: its fields, its timeline and what was sent.
export default async function MessagePage({ params }: Props) {
  await connection();
  const { id } = await params;
  const { workspace } = await requireDashboard();
  const detail = await getMessageDetail(workspace.id, id);
  if (!detail) notFound();
  const { message, events, eventCount } = detail;

  return (
    <div className="space-y-6">
      <div>
        <Link href="/emails" className="text-sm text-indigo-600 hover:underline">
          ← All messages
        </Link>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <StatusBadge status={message.status} />
          <Badge>{message.source}</Badge>
          {message.sandbox ? <Badge tone="warning">sandbox</Badge> : null}
        </div>
        <h1 className="mt-2 text-xl font-semibold tracking-tight break-words">{message.subject || "(no subject)"}</h1>
        <p className="mt-1 font-mono text-xs break-all text-slate-500">{message.id}</p>
      </div>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="min-w-0 space-y-6">
          <Card title="Message" id="fields">
            <DescriptionList items={fieldItems(message)} />
          </Card>
          <Card title="Timestamps" id="timestamps" description="UTC; a dash means it has not happened.">
            <DescriptionList items={timestampItems(message)} />
          </Card>
        </div>
        {/* On phones the timeline comes first: it is what people open this page for. */}
        <div className="order-first min-w-0 lg:order-none">
          <Card
            title="Timeline"
            id="timeline"
            description={
              eventCount > events.length ? `Newest ${events.length} of ${eventCount} events` : `${eventCount} events, newest first`
            }
          >
            <MessageTimeline events={events} />
          </Card>
        </div>
      </div>

      <Card title="HTML" id="html" description="Rendered in a sandbox: no scripts, no access to this page.">
        {message.bodyHtml ? (
          <iframe
            title="HTML body of the message"
            sandbox=""
            srcDoc={message.bodyHtml}
            referrerPolicy="no-referrer"
            className="h-[28rem] w-full rounded-md border border-slate-200 bg-white"
          />
        ) : (
          <Erased />
        )}
      </Card>

      <Card title="Text" id="text">
        {message.bodyText ? (
          <pre className="max-h-[28rem] overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-slate-800">
            {message.bodyText}
          </pre>
        ) : (
          <Erased />
        )}
      </Card>
    </div>
  );
}

function Erased() {
  return <p className="text-sm text-slate-500">No content: the message&apos;s content has been erased, or it had none.</p>;
}

const mono = (value: string) => <span className="font-mono text-xs break-all">{value}</span>;
const orNone = (value: ReactNode | null | undefined) =>
  value === null || value === undefined || value === "" ? <span className="text-slate-400">—</span> : value;
const list = (values: string[]) =>
  values.length === 0 ? orNone(null) : (
    <ul className="space-y-0.5">
      {values.map((value, index) => (
        <li key={index}>{value}</li>
      ))}
    </ul>
  );
const json = (value: Record<string, unknown>) =>
  Object.keys(value).length === 0 ? mono("{}") : <CodeBlock>{JSON.stringify(value, null, 2)}</CodeBlock>;

function fieldItems(message: MessageDetail): DescriptionItem[] {
  return [
    { term: "id", value: mono(message.id) },
    { term: "status", value: <StatusBadge status={message.status} /> },
    { term: "source", value: message.source },
    { term: "from", value: message.from },
    { term: "to", value: list(message.to) },
    { term: "cc", value: list(message.cc) },
    { term: "bcc", value: list(message.bcc) },
    { term: "replyTo", value: orNone(message.replyTo) },
    { term: "subject", value: orNone(message.subject) },
    { term: "serviceTemplateId", value: orNone(message.serviceTemplateId && mono(message.serviceTemplateId)) },
    { term: "batchId", value: orNone(message.batchId && mono(message.batchId)) },
    { term: "workflowRunId", value: orNone(message.workflowRunId && mono(message.workflowRunId)) },
    { term: "referenceId", value: orNone(message.referenceId && mono(message.referenceId)) },
    { term: "metaId", value: orNone(message.metaId && mono(message.metaId)) },
    { term: "variables", value: json(message.variables) },
    { term: "metadata", value: json(message.metadata) },
    { term: "headers", value: json(message.headers) },
    {
      term: "attachments",
      value: list(message.attachments.map((a) => `${a.name} (${a.contentType}, ${formatBytes(a.size)})`)),
    },
  ];
}

function timestampItems(message: MessageDetail): DescriptionItem[] {
  const fields = [
    "createdAt",
    "updatedAt",
    "processedAt",
    "sentAt",
    "deliveredAt",
    "firstOpenedAt",
    "lastOpenedAt",
    "firstClickedAt",
    "lastClickedAt",
    "firstBouncedAt",
    "lastBouncedAt",
    "firstComplainedAt",
    "lastComplainedAt",
    "erroredAt",
    "lastSuppressedAt",
    "lastUnsubscribedAt",
  ] as const satisfies readonly (keyof MessageDetail)[];
  return fields.map((field) => ({ term: field, value: <Timestamp value={message[field]} milliseconds /> }));
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
