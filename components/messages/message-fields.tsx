import Link from "next/link";
import type { ReactNode } from "react";
import { CodeBlock } from "@/components/ui/code-block";
import type { DescriptionItem } from "@/components/ui/description-list";
import { Timestamp } from "@/components/ui/timestamp";

/** The EmailMessage fields the page shows (a structural subset of lib's MessageDetail). */
export interface MessageFieldsSource {
  id: string;
  source: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string | null;
  subject: string;
  serviceTemplateId: string | null;
  batchId: string | null;
  workflowRunId: string | null;
  referenceId: string;
  metaId: string | null;
  variables: Record<string, unknown>;
  metadata: Record<string, unknown>;
  headers: Record<string, string>;
  attachments: { name: string; contentType: string; size: number }[];
}

const mono = (value: string) => <span className="font-mono text-xs break-all">{value}</span>;
const none = <span className="text-slate-400">—</span>;
const orNone = (value: ReactNode | null | undefined) => (value === null || value === undefined || value === "" ? none : value);
const list = (values: string[]) =>
  values.length === 0 ? none : (
    <ul className="space-y-0.5">
      {values.map((value, index) => (
        <li key={index}>{value}</li>
      ))}
    </ul>
  );
const linked = (href: string, id: string, hint?: string) => (
  <span>
    <Link href={href} className="font-mono text-xs break-all text-indigo-700 hover:underline">
      {id}
    </Link>
    {hint ? <span className="ml-1 text-xs text-slate-500">{hint}</span> : null}
  </span>
);

export function json(value: Record<string, unknown>) {
  return Object.keys(value).length === 0 ? mono("{}") : <CodeBlock>{JSON.stringify(value, null, 2)}</CodeBlock>;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Who, what and where it came from: links lead to its batch, its workflow run and its template's emails. */
export function envelopeItems(message: MessageFieldsSource, subject: ReactNode): DescriptionItem[] {
  return [
    { term: "from", value: message.from },
    { term: "to", value: list(message.to) },
    { term: "cc", value: list(message.cc) },
    { term: "bcc", value: list(message.bcc) },
    { term: "replyTo", value: orNone(message.replyTo) },
    { term: "subject", value: subject },
    { term: "source", value: message.source },
    { term: "serviceTemplateId", value: message.serviceTemplateId ? linked(`/emails?templateId=${encodeURIComponent(message.serviceTemplateId)}`, message.serviceTemplateId, "(its emails)") : none },
    { term: "batchId", value: message.batchId ? linked(`/batches/${encodeURIComponent(message.batchId)}`, message.batchId) : none },
    { term: "workflowRunId", value: message.workflowRunId ? linked(`/workflow-runs/${encodeURIComponent(message.workflowRunId)}`, message.workflowRunId) : none },
    { term: "metaId", value: message.metaId ? linked(`/emails?metaId=${encodeURIComponent(message.metaId)}`, message.metaId, "(same metaId)") : none },
    { term: "referenceId", value: orNone(message.referenceId && mono(message.referenceId)) },
    { term: "id", value: mono(message.id) },
  ];
}

export function dataItems(message: MessageFieldsSource, variables: ReactNode): DescriptionItem[] {
  return [
    { term: "variables", value: variables },
    { term: "metadata", value: json(message.metadata) },
    { term: "headers", value: json(message.headers) },
    { term: "attachments", value: list(message.attachments.map((a) => `${a.name} (${a.contentType}, ${formatBytes(a.size)})`)) },
  ];
}

const TIMESTAMP_FIELDS = [
  "createdAt",
  "updatedAt",
  "processedAt",
  "sentAt",
  "deliveredAt",
  "deliveryUnconfirmedAt",
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
  "contentPurgedAt",
] as const;

export function timestampItems(message: Record<(typeof TIMESTAMP_FIELDS)[number], Date | null>): DescriptionItem[] {
  return TIMESTAMP_FIELDS.map((field) => ({ term: field, value: <Timestamp value={message[field]} milliseconds /> }));
}
