import Link from "next/link";
import type { ReactNode } from "react";
import { CodeBlock } from "@/components/ui/code-block";
import type { DescriptionItem } from "@/components/ui/description-list";
import { Timestamp } from "@/components/ui/timestamp";
import { doorWords, type DoorFacts } from "@/lib/domain/messages/door-words.shared";
import { localeWords, type LocaleFacts } from "@/lib/domain/messages/locale-words.shared";

/** The EmailMessage fields the page shows (a structural subset of lib's MessageDetail). */
export interface MessageFieldsSource extends DoorFacts, LocaleFacts {
  id: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string | null;
  subject: string;
  serviceTemplateId: string | null;
  templateName: string | null;
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
const orNone = (value: ReactNode | null | undefined) =>
  value === null || value === undefined || value === "" ? none : value;
const list = (values: string[]) =>
  values.length === 0 ? (
    none
  ) : (
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

/** The template by name, leading to it in the studio; its emails one link further. A deleted one shows its id. */
function templateValue(message: MessageFieldsSource) {
  const id = message.serviceTemplateId;
  if (!id) return none;
  const emails = (
    <Link href={`/emails?templateId=${encodeURIComponent(id)}`} className="ml-2 text-xs text-slate-500 hover:underline">
      its emails
    </Link>
  );
  if (!message.templateName)
    return <span>{linked(`/emails?templateId=${encodeURIComponent(id)}`, id, "(its emails)")}</span>;
  return (
    <span>
      <Link
        href={`/templates/${encodeURIComponent(id)}`}
        className="text-indigo-700 hover:underline"
        data-testid="template-link"
      >
        {message.templateName}
      </Link>
      {emails}
    </span>
  );
}

/** Who, what and where it came from, in words; the API's field names are in the page's developer details. */
export function envelopeItems(message: MessageFieldsSource, subject: ReactNode): DescriptionItem[] {
  return [
    { term: "From", value: message.from },
    { term: "To", value: list(message.to) },
    { term: "Cc", value: list(message.cc) },
    { term: "Bcc", value: list(message.bcc) },
    { term: "Reply to", value: orNone(message.replyTo) },
    { term: "Subject", value: subject },
    { term: "How it came in", value: <span data-testid="message-door">{doorWords(message)}</span> },
    { term: "Template", value: templateValue(message) },
    { term: "Locale", value: <span data-testid="message-locale">{localeWords(message) ?? none}</span> },
    {
      term: "Batch",
      value: message.batchId ? linked(`/batches/${encodeURIComponent(message.batchId)}`, message.batchId) : none,
    },
    {
      term: "Workflow run",
      value: message.workflowRunId
        ? linked(`/workflow-runs/${encodeURIComponent(message.workflowRunId)}`, message.workflowRunId)
        : none,
    },
    {
      term: "Meta id",
      value: message.metaId
        ? linked(`/emails?metaId=${encodeURIComponent(message.metaId)}`, message.metaId, "(same metaId)")
        : none,
    },
  ];
}

export function dataItems(message: MessageFieldsSource, variables: ReactNode): DescriptionItem[] {
  return [
    { term: "Variables", value: variables },
    { term: "Metadata", value: json(message.metadata) },
    { term: "Headers", value: json(message.headers) },
    {
      term: "Attachments",
      value: list(message.attachments.map((a) => `${a.name} (${a.contentType}, ${formatBytes(a.size)})`)),
    },
  ];
}

const TIMESTAMP_FIELDS = [
  "createdAt",
  "updatedAt",
  "processedAt",
  "scheduledAt",
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

type TimestampField = (typeof TIMESTAMP_FIELDS)[number];

/** `firstOpenedAt` → "First opened": the words for a reader; the field names stay in the developer details. */
export function timestampWords(field: string): string {
  const words = field
    .replace(/At$/, "")
    .replace(/([A-Z])/g, " $1")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function timestampItems(message: Record<TimestampField, Date | null>): DescriptionItem[] {
  return TIMESTAMP_FIELDS.map((field) => ({
    term: timestampWords(field),
    value: <Timestamp value={message[field]} milliseconds />,
  }));
}

/** The API's own names and raw values, for developers matching the page to a webhook or a log line. */
export function developerItems(
  message: MessageFieldsSource & Record<TimestampField, Date | null> & { status: string },
): DescriptionItem[] {
  const raw = (value: string | null) => (value ? mono(value) : none);
  return [
    { term: "id", value: mono(message.id) },
    { term: "status", value: mono(message.status) },
    { term: "source", value: mono(message.source) },
    { term: "submittedVia", value: raw(message.submittedVia) },
    { term: "serviceTemplateId", value: raw(message.serviceTemplateId) },
    { term: "batchId", value: raw(message.batchId) },
    { term: "workflowRunId", value: raw(message.workflowRunId) },
    { term: "metaId", value: raw(message.metaId) },
    { term: "referenceId", value: raw(message.referenceId || null) },
    ...TIMESTAMP_FIELDS.map((field) => ({ term: field, value: raw(message[field]?.toISOString() ?? null) })),
  ];
}
