import type { ReactNode } from "react";
import { formatBytes, json } from "@/components/messages/message-fields";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { DescriptionList, type DescriptionItem } from "@/components/ui/description-list";
import { Timestamp } from "@/components/ui/timestamp";
import { VERDICT_MEANINGS, verdictTone, verdictWords } from "./verdict-chips";

/** The stored fields of an inbound mail the page shows (a structural subset of the inbound_messages row). */
export interface InboundDetailSource {
  id: string;
  recipient: string;
  mailboxHash: string | null;
  envelopeFrom: string;
  envelopeTo: string[];
  remoteIp: string | null;
  helo: string | null;
  fromAddress: string | null;
  fromName: string | null;
  to: Array<{ address: string; name: string | null }>;
  cc: Array<{ address: string; name: string | null }>;
  replyTo: Array<{ address: string; name: string | null }>;
  sentAt: Date | null;
  createdAt: Date;
  messageIdHeader: string | null;
  inReplyTo: string | null;
  references: string[];
  sizeBytes: number;
  spf: string;
  dkim: string;
  dmarc: string;
  arc: string;
  spamStatus: string;
  spamScore: number | null;
  quarantineReason: string | null;
  actionResults: Array<Record<string, unknown>>;
  attachments: Array<{ id: string; filename: string; contentType: string; size: number; inline: boolean }>;
}

const none = <span className="text-slate-400">—</span>;
const mono = (value: string | null) => (value ? <span className="font-mono text-xs break-all">{value}</span> : none);
const addresses = (list: Array<{ address: string; name: string | null }>) =>
  list.length === 0
    ? none
    : list.map((entry) => (entry.name ? `${entry.name} <${entry.address}>` : entry.address)).join(", ");

/** Who sent it to whom, and how it reached us. */
export function InboundFieldsCard({ message, route }: { message: InboundDetailSource; route: ReactNode }) {
  const items: DescriptionItem[] = [
    {
      term: "From",
      value: addresses(message.fromAddress ? [{ address: message.fromAddress, name: message.fromName }] : []),
    },
    { term: "To", value: addresses(message.to) },
    { term: "Cc", value: addresses(message.cc) },
    { term: "Reply to", value: addresses(message.replyTo) },
    { term: "Recipient (routed)", value: <span className="break-all">{message.recipient}</span> },
    { term: "Route", value: route },
    { term: "Mailbox hash", value: mono(message.mailboxHash) },
    { term: "Envelope sender", value: mono(message.envelopeFrom || "<> (none)") },
    { term: "Sent (its Date)", value: <Timestamp value={message.sentAt} /> },
    { term: "Received", value: <Timestamp value={message.createdAt} /> },
    {
      term: "Sending server",
      value: mono([message.remoteIp, message.helo && `HELO ${message.helo}`].filter(Boolean).join(", ") || null),
    },
    { term: "Message-ID", value: mono(message.messageIdHeader) },
    { term: "In-Reply-To", value: mono(message.inReplyTo) },
    { term: "References", value: message.references.length ? mono(message.references.join(" ")) : none },
    { term: "Size", value: formatBytes(message.sizeBytes) },
  ];
  return (
    <Card title="Message" id="fields">
      <DescriptionList terms="words" items={items} />
    </Card>
  );
}

/** Each check's result with what it means, and why a quarantined mail ran no actions. */
export function InboundChecksCard({ message }: { message: InboundDetailSource }) {
  const spam =
    message.spamStatus === "not_checked"
      ? "not checked"
      : `${verdictWords(message.spamStatus)}${message.spamScore === null ? "" : ` (score ${message.spamScore})`}`;
  const rows: Array<[string, string, string]> = [
    ["SPF", message.spf, VERDICT_MEANINGS.spf],
    ["DKIM", message.dkim, VERDICT_MEANINGS.dkim],
    ["DMARC", message.dmarc, VERDICT_MEANINGS.dmarc],
    ["ARC", message.arc, VERDICT_MEANINGS.arc],
    ["Spam", spam, VERDICT_MEANINGS.spam],
  ];
  return (
    <Card title="Checks" id="checks" description="Authentication of the sender and the spam verdict, as received.">
      <ul className="space-y-3 text-sm">
        {message.quarantineReason ? (
          <li
            className="rounded-md bg-amber-50 px-3 py-2 text-amber-800 ring-1 ring-amber-200 ring-inset"
            data-testid="quarantine-reason"
          >
            Quarantined: {message.quarantineReason}. Stored only: no webhook, forward or workflow ran.
          </li>
        ) : null}
        {rows.map(([name, value, meaning]) => (
          <li key={name} data-testid={`check-${name.toLowerCase()}`}>
            <div className="flex flex-wrap items-center gap-2">
              <span className="w-14 font-medium text-slate-800">{name}</span>
              <Badge
                tone={
                  name === "Spam" && message.spamStatus === "not_checked"
                    ? "neutral"
                    : verdictTone(name === "Spam" ? message.spamStatus : value)
                }
              >
                {verdictWords(value)}
              </Badge>
            </div>
            <p className="mt-0.5 text-xs text-slate-500">{meaning}</p>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** What the route's actions did with it (webhook queued, forwarded as em_…, workflow run wfr_…). */
export function InboundActionsCard({ results }: { results: Array<Record<string, unknown>> }) {
  return (
    <Card title="Route actions" id="actions" description="After storing, in the route's order.">
      {results.length === 0 ? (
        <p className="text-sm text-slate-600">No actions ran: stored only.</p>
      ) : (
        json({ results })
      )}
    </Card>
  );
}

/** Files that came with the mail, each downloaded through the dashboard (signed in, this workspace only). */
export function InboundAttachmentsCard({
  attachments,
  hrefOf,
}: {
  attachments: InboundDetailSource["attachments"];
  hrefOf: (attachmentId: string) => string;
}) {
  return (
    <Card title="Attachments" id="attachments">
      {attachments.length === 0 ? (
        <p className="text-sm text-slate-600">No attachments.</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm">
          {attachments.map((file) => (
            <li key={file.id} className="flex flex-wrap items-center gap-2 py-2" data-testid="inbound-attachment">
              <a href={hrefOf(file.id)} className="font-medium break-all text-indigo-700 hover:underline">
                {file.filename || file.id}
              </a>
              <span className="text-xs text-slate-500">
                {file.contentType}, {formatBytes(file.size)}
                {file.inline ? ", inline" : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
