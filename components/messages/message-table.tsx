import Link from "next/link";
import { Fragment } from "react";
import { Badge } from "@/components/ui/badge";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import type { DeliveryFacts } from "@/lib/domain/messages/delivery-state.shared";
import { ApiStatusNote, DeliveryBadge } from "./delivery-badge";
import { TagChips } from "./tag-chips";

/** One message as every list of messages shows it (Emails, Overview, a batch, a run, a contact). */
export interface MessageListItem extends DeliveryFacts {
  id: string;
  source: string;
  /** Shown under the source when it says more than it: mail submitted over SMTP is source API. */
  submittedVia?: string | null;
  to: string[];
  subject: string;
  /** `name:value` tags, as small chips under the subject (docs/api.md#tags). */
  tags?: string[];
  templateId: string | null;
  createdAt: Date;
  /** Content erased or purged: an empty subject is not "(no subject)". */
  erased?: boolean;
}

function recipients(to: string[]): string {
  if (to.length <= 2) return to.join(", ");
  return `${to.slice(0, 2).join(", ")} +${to.length - 2} more`;
}

/** `SANDBOX_WORKFLOW` may break after its underscore, so a narrow cell wraps it instead of spilling into the next. */
export function SourceBadge({ source, sandbox }: { source: string; sandbox: boolean }) {
  const parts = source.split("_");
  return (
    <Badge tone={sandbox ? "warning" : "neutral"}>
      <span className="whitespace-normal break-words" title={source} data-testid="source-badge">
        {parts.map((part, index) => (
          <Fragment key={index}>
            {index > 0 ? (
              <>
                <wbr />_
              </>
            ) : null}
            {part}
          </Fragment>
        ))}
      </span>
    </Badge>
  );
}

/**
 * The one table of messages; the subject opens the message. Scrolls sideways inside its frame on
 * phones, so the page itself never does.
 */
export function MessageTable({
  rows,
  templateNames,
  label = "Emails, newest first",
}: {
  rows: MessageListItem[];
  templateNames: Map<string, string>;
  label?: string;
}) {
  return (
    <Table label={label}>
      <THead>
        <Th>Delivery</Th>
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
              <DeliveryBadge message={row} />
              <div className="mt-1">
                <ApiStatusNote status={row.status} />
              </div>
              {row.scheduledAt && (row.status === "PENDING" || row.status === "PAUSED") ? (
                <div className="mt-1 text-xs text-slate-500" data-testid="scheduled-at">
                  ◷ <Timestamp value={row.scheduledAt} />
                </div>
              ) : null}
            </Td>
            <Td className="max-w-56 truncate text-slate-700" title={row.to.join(", ")}>
              {recipients(row.to)}
            </Td>
            <Td className="max-w-60 min-w-48 2xl:max-w-80">
              <Link href={`/emails/${row.id}`} className="block truncate font-medium text-indigo-700 hover:underline">
                {row.subject || (row.erased || row.status === "DELETED" ? "(content erased)" : "(no subject)")}
              </Link>
              <TagChips tags={row.tags} className="mt-1" />
            </Td>
            <Td className="max-w-40 truncate text-slate-600">
              {row.templateId ? (
                (templateNames.get(row.templateId) ?? <span className="font-mono text-xs">{row.templateId}</span>)
              ) : (
                <span className="text-slate-400">—</span>
              )}
            </Td>
            <Td className="max-w-40">
              <SourceBadge source={row.source} sandbox={row.sandbox} />
              {row.submittedVia === "smtp" ? (
                <div className="mt-1 text-xs text-slate-500" data-testid="message-door">
                  over SMTP
                </div>
              ) : null}
            </Td>
            <Td className="text-slate-600">
              <Timestamp value={row.createdAt} />
            </Td>
          </tr>
        ))}
      </TBody>
    </Table>
  );
}
