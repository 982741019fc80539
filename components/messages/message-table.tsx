import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Timestamp } from "@/components/ui/timestamp";
import { StatusBadge } from "./status-badge";

export interface MessageRow {
  id: string;
  status: string;
  source: string;
  to: string[];
  subject: string;
  createdAt: Date;
}

function recipients(to: string[]): string {
  if (to.length <= 2) return to.join(", ");
  return `${to.slice(0, 2).join(", ")} +${to.length - 2} more`;
}

/** Latest messages, one row each; the subject links to the message page. Phones see two columns. */
export function MessageTable({ messages }: { messages: MessageRow[] }) {
  return (
    <div className="overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="w-full table-fixed text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-medium tracking-wide text-slate-500 uppercase">
          <tr>
            <th scope="col" className="w-28 px-4 py-2.5 sm:w-32">
              Status
            </th>
            <th scope="col" className="px-4 py-2.5">
              Message
            </th>
            <th scope="col" className="hidden w-36 px-4 py-2.5 md:table-cell">
              Source
            </th>
            <th scope="col" className="hidden w-56 px-4 py-2.5 sm:table-cell">
              Created
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {messages.map((message) => (
            <tr key={message.id} className="relative align-top hover:bg-slate-50">
              <td className="px-4 py-3">
                <StatusBadge status={message.status} />
              </td>
              <td className="min-w-0 px-4 py-3">
                <Link
                  href={`/emails/${message.id}`}
                  className="block truncate font-medium text-slate-900 after:absolute after:inset-0 hover:underline"
                >
                  {message.subject || "(no subject)"}
                </Link>
                <p className="truncate text-slate-600">
                  <span className="text-slate-400">to </span>
                  {recipients(message.to)}
                </p>
                <p className="mt-0.5 text-xs text-slate-500 sm:hidden">
                  <Timestamp value={message.createdAt} /> · {message.source}
                </p>
              </td>
              <td className="hidden px-4 py-3 md:table-cell">
                <Badge>{message.source}</Badge>
              </td>
              <td className="hidden px-4 py-3 whitespace-nowrap text-slate-600 sm:table-cell">
                <Timestamp value={message.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
