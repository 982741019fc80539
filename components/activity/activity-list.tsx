import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { CodeBlock } from "@/components/ui/code-block";
import { Timestamp } from "@/components/ui/timestamp";

export interface ActivityRowView {
  id: string;
  createdAt: Date;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  sandbox: boolean;
  apiKeyId: string | null;
  apiKeyName: string | null;
  errorCode: string | null;
  resourceId: string | null;
  requestBody: unknown;
  responseBody: unknown;
}

const pretty = (value: unknown) => (value === null || value === undefined ? "(none)" : JSON.stringify(value, null, 2));

/** API requests newest first; each row opens (native <details>) to its request and response bodies. */
export function ActivityList({ rows }: { rows: ActivityRowView[] }) {
  return (
    <ul
      aria-label="API requests"
      className="divide-y divide-slate-100 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      {rows.map((row) => (
        <li key={row.id} data-testid="activity-row">
          <details className="group">
            <summary className="flex cursor-pointer list-none flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2.5 text-sm hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
              <span aria-hidden className="text-slate-400 transition-transform group-open:rotate-90">
                ▸
              </span>
              <span className="w-44 shrink-0 text-xs text-slate-500">
                <Timestamp value={row.createdAt} />
              </span>
              <span className="w-14 shrink-0 font-mono text-xs font-semibold text-slate-700">{row.method}</span>
              <span className="min-w-0 flex-1 font-mono text-xs break-all text-slate-900">{row.path}</span>
              <Badge tone={row.status >= 500 ? "danger" : row.status >= 400 ? "warning" : "success"}>
                {row.status}
              </Badge>
              {row.sandbox ? <Badge>sandbox</Badge> : null}
              <span className="w-28 shrink-0 truncate text-xs text-slate-600" title={row.apiKeyId ?? undefined}>
                {row.apiKeyName ?? row.apiKeyId ?? "—"}
              </span>
              <span className="w-14 shrink-0 text-right text-xs text-slate-500 tabular-nums">{row.durationMs} ms</span>
            </summary>
            <div className="space-y-3 border-t border-slate-100 bg-slate-50 px-4 py-3 text-sm">
              <p className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
                <span>
                  Key: <span className="font-mono">{row.apiKeyId ?? "—"}</span>
                </span>
                {row.errorCode ? (
                  <span>
                    Error: <span className="font-mono">{row.errorCode}</span>
                  </span>
                ) : null}
                {row.resourceId ? (
                  <span>
                    Resource: <ResourceLink id={row.resourceId} />
                  </span>
                ) : null}
              </p>
              <div className="grid gap-3 lg:grid-cols-2">
                <div className="min-w-0">
                  <p className="mb-1 text-xs font-medium text-slate-600">Request body</p>
                  <CodeBlock label="Request body">{pretty(row.requestBody)}</CodeBlock>
                </div>
                <div className="min-w-0">
                  <p className="mb-1 text-xs font-medium text-slate-600">Response body</p>
                  <CodeBlock label="Response body">{pretty(row.responseBody)}</CodeBlock>
                </div>
              </div>
            </div>
          </details>
        </li>
      ))}
    </ul>
  );
}

/** Messages, batches and workflow runs have pages of their own; other resources are shown as ids. */
function ResourceLink({ id }: { id: string }) {
  const base = id.startsWith("em_")
    ? "/emails"
    : id.startsWith("batch_")
      ? "/batches"
      : id.startsWith("wfr_")
        ? "/workflow-runs"
        : null;
  if (!base) return <span className="font-mono">{id}</span>;
  return (
    <Link href={`${base}/${id}`} className="font-mono text-indigo-600 hover:underline">
      {id}
    </Link>
  );
}
