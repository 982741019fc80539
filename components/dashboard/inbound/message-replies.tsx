import Link from "next/link";
import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { InboundTable, type InboundListItem } from "./inbound-table";

/** On a sent message's page: the inbound mail that answers it, its thread, and (for anyone) "Simulate a reply". */
export function MessageReplies({
  replies,
  threadId,
  simulate,
}: {
  replies: InboundListItem[];
  threadId: string | null;
  simulate: ReactNode;
}) {
  return (
    <Card
      title="Replies"
      id="replies"
      description="Inbound mail that answers this message (by In-Reply-To, References or its reply address)."
      actions={
        threadId ? (
          <Link href={`/inbound/threads/${threadId}`} className="text-sm text-indigo-600 hover:underline">
            Open the thread
          </Link>
        ) : null
      }
    >
      <div className="space-y-4">
        {replies.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="no-replies">
            No replies yet.
          </p>
        ) : (
          <InboundTable rows={replies} label="Replies to this message" />
        )}
        {simulate}
      </div>
    </Card>
  );
}
