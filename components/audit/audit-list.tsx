import { Badge } from "@/components/ui/badge";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import type { AuditEventRow } from "@/lib/records/audit/list-audit-events";
import { auditActorWords } from "@/lib/records/audit/actor-words.shared";

const ACTOR_TONE = { USER: "info", API_KEY: "warning", SYSTEM: "neutral" } as const;

/** One row per change: when, who (by name, and from where), what, on what, and the changed fields. */
export function AuditList({ rows, actorNames }: { rows: AuditEventRow[]; actorNames: Map<string, string> }) {
  return (
    <Table label="Audit log">
      <THead>
        <Th>When</Th>
        <Th>Actor</Th>
        <Th>Action</Th>
        <Th>Target</Th>
        <Th>Change</Th>
      </THead>
      <TBody>
        {rows.map((row) => (
          <tr key={row.id} data-testid={`audit-${row.id}`}>
            <Td className="whitespace-nowrap">
              <Timestamp value={row.createdAt} />
            </Td>
            <Td>
              <div className="flex items-center gap-2">
                <Badge tone={ACTOR_TONE[row.actorType]}>
                  {row.actorType === "API_KEY" ? "API key" : row.actorType === "USER" ? "User" : "System"}
                </Badge>
                <span className="break-all" title={row.actorId ?? undefined} data-testid="audit-actor">
                  {auditActorWords(row, actorNames)}
                </span>
              </div>
              {row.ip || row.userAgent ? (
                <div className="mt-1 max-w-56 truncate text-xs text-slate-500" title={row.userAgent ?? undefined}>
                  {[row.ip, row.userAgent].filter(Boolean).join(" · ")}
                </div>
              ) : null}
            </Td>
            <Td className="font-mono text-xs whitespace-nowrap">{row.action}</Td>
            <Td className="font-mono text-xs break-all">
              {row.targetType}
              {row.targetId ? ` ${row.targetId}` : ""}
            </Td>
            <Td className="text-xs">
              <Change before={row.before} after={row.after} />
            </Td>
          </tr>
        ))}
      </TBody>
    </Table>
  );
}

function Change({ before, after }: { before: Record<string, unknown> | null; after: Record<string, unknown> | null }) {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  if (keys.length === 0) return <span className="text-slate-400">—</span>;
  const show = (side: Record<string, unknown> | null, key: string) =>
    side && key in side ? JSON.stringify(side[key]) : "—";
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 gap-y-0.5">
      {keys.map((key) => (
        <div key={key} className="contents">
          <dt className="font-medium text-slate-700">{key}</dt>
          <dd className="font-mono break-all text-slate-600">
            {before ? `${show(before, key)} → ` : ""}
            {show(after, key)}
          </dd>
        </div>
      ))}
    </dl>
  );
}
