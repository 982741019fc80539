import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Timestamp } from "@/components/ui/timestamp";

/** One message of a conversation: mail we sent (outbound, `em_…`) or mail that came in (inbound, `inm_…`). */
export interface ThreadItem {
  direction: "inbound" | "outbound";
  id: string;
  from: string;
  to: string;
  subject: string;
  at: Date;
  /** The stripped reply of an inbound mail, or the text of a sent one; trimmed for the list. */
  excerpt: string | null;
}

/** The thread's messages in the order they were sent or received, each saying which way it went. */
export function ThreadMessages({ items }: { items: ThreadItem[] }) {
  return (
    <ol className="space-y-3" aria-label="Messages in this thread, oldest first">
      {items.map((item) => {
        const inbound = item.direction === "inbound";
        return (
          <li
            key={item.id}
            data-testid="thread-item"
            data-direction={item.direction}
            data-id={item.id}
            className={`rounded-lg border bg-white p-3 shadow-sm sm:p-4 ${
              inbound ? "border-sky-200 sm:mr-12" : "border-indigo-200 sm:ml-12"
            }`}
          >
            <div className="flex flex-wrap items-center gap-2">
              <Badge tone={inbound ? "info" : "neutral"}>{inbound ? "↙ Received" : "↗ Sent"}</Badge>
              <Link
                href={inbound ? `/inbound/${item.id}` : `/emails/${item.id}`}
                className="min-w-0 font-medium break-words text-indigo-700 hover:underline"
              >
                {item.subject || "(no subject)"}
              </Link>
              <span className="ml-auto text-xs whitespace-nowrap text-slate-500">
                <Timestamp value={item.at} />
              </span>
            </div>
            <p className="mt-1 text-xs break-all text-slate-600">
              From {item.from || "(no sender)"} to {item.to || "(no recipient)"}
            </p>
            {item.excerpt ? (
              <p className="mt-2 line-clamp-4 text-sm break-words whitespace-pre-line text-slate-800">{item.excerpt}</p>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
