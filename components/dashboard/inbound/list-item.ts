import type { InboundListItem } from "./inbound-table";

/** The columns every inbound list reads (lib/domain/inbound's summaries), as the table shows them. */
export interface InboundSummaryLike {
  id: string;
  createdAt: Date;
  status: string;
  quarantineReason: string | null;
  recipient: string;
  originalMessageId: string | null;
  fromAddress: string | null;
  fromName: string | null;
  subject: string;
  spf: string;
  dkim: string;
  dmarc: string;
  spamStatus: string;
  spamScore: number | null;
}

export function toInboundListItem(row: InboundSummaryLike, route: string | null): InboundListItem {
  return {
    id: row.id,
    status: row.status,
    quarantineReason: row.quarantineReason,
    fromAddress: row.fromAddress,
    fromName: row.fromName,
    recipient: row.recipient,
    subject: row.subject,
    route,
    verdicts: { spf: row.spf, dkim: row.dkim, dmarc: row.dmarc, spamStatus: row.spamStatus, spamScore: row.spamScore },
    originalMessageId: row.originalMessageId,
    receivedAt: row.createdAt,
  };
}
