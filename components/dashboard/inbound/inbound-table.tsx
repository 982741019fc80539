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

/** The one table of inbound mail; the subject opens the message. Scrolls inside its frame on phones. */
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
        <Th>Status</Th>
        <Th>From</Th>
        <Th>Subject</Th>
        <Th>To</Th>
        <Th>Checks</Th>
        <Th>Received</Th>
      </THead>
      <TBody>
        {rows.map((row) => (
          <tr key={row.id} data-testid="inbound-row" data-id={row.id} className="hover:bg-slate-50">
            <Td>
              <InboundStatusBadge status={row.status} reason={row.quarantineReason} />
            </Td>
            <Td className="max-w-48 truncate text-slate-700" title={fromLabel(row)}>
              {fromLabel(row)}
            </Td>
            <Td className="max-w-60 min-w-44 2xl:max-w-80">
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
            <Td className="max-w-48 text-slate-700">
              <div className="truncate" title={row.recipient}>
                {row.recipient}
              </div>
              <div className="truncate text-xs text-slate-500" title={row.route ?? undefined}>
                {row.route ? `route ${row.route}` : "no route: stored only"}
              </div>
            </Td>
            <Td className="min-w-40">
              <VerdictChips verdicts={row.verdicts} />
            </Td>
            <Td className="whitespace-nowrap text-slate-600">
              <Timestamp value={row.receivedAt} />
            </Td>
          </tr>
        ))}
      </TBody>
    </Table>
  );
}
