import Link from "next/link";
import { formatMinute } from "@/components/ui/timestamp";

export interface InboxListEntry {
  messageId: string;
  from: string;
  to: string[];
  subject: string;
  date: Date;
  purged: boolean;
}

/** The mailbox column: sender, subject, recipients and date; the open message is marked. */
export function InboxList({
  items,
  selectedId,
  hrefFor,
}: {
  items: InboxListEntry[];
  selectedId: string | null;
  hrefFor: (id: string) => string;
}) {
  return (
    <ul
      aria-label="Delivered messages, newest first"
      className="divide-y divide-slate-100 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      {items.map((item) => {
        const selected = item.messageId === selectedId;
        return (
          <li key={item.messageId} data-testid="inbox-item">
            <Link
              href={hrefFor(item.messageId)}
              aria-current={selected ? "true" : undefined}
              className={`block px-4 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600 ${selected ? "bg-indigo-50" : ""}`}
            >
              <div className="flex items-baseline justify-between gap-2">
                <span className="truncate text-sm font-semibold text-slate-900">{item.from}</span>
                <time dateTime={item.date.toISOString()} className="shrink-0 text-xs text-slate-500 tabular-nums">
                  {formatMinute(item.date)}
                </time>
              </div>
              <p className="truncate text-sm text-slate-800">
                {item.subject || (item.purged ? "(content purged)" : "(no subject)")}
              </p>
              <p className="truncate text-xs text-slate-500">to {item.to.join(", ")}</p>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
