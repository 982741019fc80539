import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { StatusBadge } from "./status-badge";

export interface EmailListItem {
  id: string;
  status: string;
  source: string;
  sandbox: boolean;
  to: string[];
  subject: string;
  templateId: string | null;
  createdAt: Date;
  erased: boolean;
}

function recipients(to: string[]): string {
  if (to.length <= 2) return to.join(", ");
  return `${to.slice(0, 2).join(", ")} +${to.length - 2} more`;
}

/** The Emails page's rows; the subject opens the message. Scrolls sideways inside its frame on phones. */
export function EmailListTable({ rows, templateNames }: { rows: EmailListItem[]; templateNames: Map<string, string> }) {
  return (
    <Table label="Emails, newest first">
      <THead>
        <Th>Status</Th>
        <Th>To</Th>
        <Th>Subject</Th>
        <Th>Template</Th>
        <Th>Source</Th>
        <Th>Created</Th>
      </THead>
      <TBody>
        {rows.map((row) => (
          <tr key={row.id} data-testid="email-row" data-id={row.id} className="hover:bg-slate-50">
            <Td>
              <StatusBadge status={row.status} />
            </Td>
            <Td className="max-w-56 truncate text-slate-700" title={row.to.join(", ")}>
              {recipients(row.to)}
            </Td>
            <Td className="max-w-80 min-w-48">
              <Link href={`/emails/${row.id}`} className="block truncate font-medium text-indigo-700 hover:underline">
                {row.subject || (row.erased ? "(content erased)" : "(no subject)")}
              </Link>
            </Td>
            <Td className="max-w-40 truncate text-slate-600">
              {row.templateId ? (templateNames.get(row.templateId) ?? <span className="font-mono text-xs">{row.templateId}</span>) : <span className="text-slate-400">—</span>}
            </Td>
            <Td>
              <div className="flex gap-1">
                <Badge tone={row.sandbox ? "warning" : "neutral"}>{row.source}</Badge>
              </div>
            </Td>
            <Td className="whitespace-nowrap text-slate-600">
              <Timestamp value={row.createdAt} />
            </Td>
          </tr>
        ))}
      </TBody>
    </Table>
  );
}
