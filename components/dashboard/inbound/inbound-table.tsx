import Link from "next/link";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { InboundStatusBadge, VerdictChips, type InboundVerdicts } from "./verdict-chips";

/** One inbound mail as the Inbound list shows it. */
export interface InboundListItem {
  id: string;
  status: string;
  quarantineReason: string | null;
  fromAddress: string | null;
  fromName: string | null;
  recipient: string;
  subject: string;
  /** The route's pattern (`support@…`), or null when none matched (a reply token stored only). */
  route: string | null;
  verdicts: InboundVerdicts;
  /** The message it answers (`em_…`), when linked. */
  originalMessageId: string | null;
  receivedAt: Date;
}

export function fromLabel(item: { fromAddress: string | null; fromName: string | null }): string {
  if (!item.fromAddress) return "(no sender)";
  return item.fromName ? `${item.fromName} <${item.fromAddress}>` : item.fromAddress;
}

/**
 * The one table of inbound mail, four columns so it fits at 1,366 px: state and time, who to whom (and the route),
 * the subject (and the message it answers), the checks. The subject opens the message; on phones the table scrolls
 * inside its frame.
 */
export function InboundTable({
  rows,
  label = "Inbound mail, newest first",
}: {
  rows: InboundListItem[];
  label?: string;
}) {
  return (
    <Table label={label}>
      <THead>
        <Th>Received</Th>
        <Th>From, to</Th>
        <Th>Subject</Th>
        <Th>Checks</Th>
      </THead>
      <TBody>
        {rows.map((row) => (
          <tr key={row.id} data-testid="inbound-row" data-id={row.id} className="hover:bg-slate-50">
            <Td className="whitespace-nowrap">
              <InboundStatusBadge status={row.status} reason={row.quarantineReason} />
              <div className="mt-1 text-xs text-slate-500">
                <Timestamp value={row.receivedAt} />
              </div>
            </Td>
            <Td className="max-w-64 min-w-40 text-slate-700">
              <div className="truncate" title={fromLabel(row)}>
                {fromLabel(row)}
              </div>
              <div className="truncate text-xs text-slate-500" title={row.recipient}>
                to {row.recipient}
              </div>
              <div className="truncate text-xs text-slate-500" title={row.route ?? undefined}>
                {row.route ? `route ${row.route}` : "no route: stored only"}
              </div>
            </Td>
            <Td className="max-w-72 min-w-44">
              <Link href={`/inbound/${row.id}`} className="block truncate font-medium text-indigo-700 hover:underline">
                {row.subject || "(no subject)"}
              </Link>
              {row.originalMessageId ? (
                <Link
                  href={`/emails/${row.originalMessageId}`}
                  className="mt-0.5 block truncate text-xs text-slate-500 hover:underline"
                  data-testid="reply-to-link"
                >
                  reply to <span className="font-mono">{row.originalMessageId}</span>
                </Link>
              ) : null}
            </Td>
            <Td className="min-w-40">
              <VerdictChips verdicts={row.verdicts} />
            </Td>
          </tr>
        ))}
      </TBody>
    </Table>
  );
}
