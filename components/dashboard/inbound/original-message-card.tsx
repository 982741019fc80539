import Link from "next/link";
import { json } from "@/components/messages/message-fields";
import { Card } from "@/components/ui/card";
import { DescriptionList } from "@/components/ui/description-list";
import { Timestamp } from "@/components/ui/timestamp";

/** The sent message an inbound mail answers, as far as the reply's page shows it. */
export interface OriginalMessageView {
  id: string;
  subject: string;
  to: string[];
  sentAt: Date | null;
  createdAt: Date;
  templateId: string | null;
  templateName: string | null;
  workflowRunId: string | null;
  metaId: string | null;
  metadata: Record<string, unknown>;
}

const none = <span className="text-slate-400">—</span>;

/**
 * "In reply to": the message we sent that this mail answers, with what an app needs to act on the reply: its
 * recipient, template, metadata and workflow run. `original` null with an id: the message was erased or purged.
 */
export function OriginalMessageCard({
  originalId,
  original,
}: {
  originalId: string | null;
  original: OriginalMessageView | null;
}) {
  return (
    <Card
      title="In reply to"
      id="original"
      description="The message of this workspace it answers (by In-Reply-To, References or its reply address)."
    >
      {!originalId ? (
        <p className="text-sm text-slate-600" data-testid="no-original">
          It answers none of this workspace&apos;s messages.
        </p>
      ) : !original ? (
        <p className="text-sm text-slate-600">
          <span className="font-mono text-xs">{originalId}</span>: that message is no longer here.
        </p>
      ) : (
        <div data-testid="original-message">
          <DescriptionList
            terms="words"
            items={[
              {
                term: "Message",
                value: (
                  <Link
                    href={`/emails/${original.id}`}
                    className="font-medium break-words text-indigo-700 hover:underline"
                  >
                    {original.subject || "(no subject)"}
                  </Link>
                ),
              },
              { term: "Message id", value: <span className="font-mono text-xs break-all">{original.id}</span> },
              { term: "Sent to", value: original.to.length ? original.to.join(", ") : none },
              { term: "Sent", value: <Timestamp value={original.sentAt ?? original.createdAt} /> },
              {
                term: "Template",
                value: original.templateId ? (
                  <Link href={`/templates/${original.templateId}`} className="text-indigo-700 hover:underline">
                    {original.templateName ?? original.templateId}
                  </Link>
                ) : (
                  none
                ),
              },
              {
                term: "Workflow run",
                value: original.workflowRunId ? (
                  <Link
                    href={`/workflow-runs/${original.workflowRunId}`}
                    className="font-mono text-xs text-indigo-700 hover:underline"
                  >
                    {original.workflowRunId}
                  </Link>
                ) : (
                  none
                ),
              },
              {
                term: "Meta id",
                value: original.metaId ? <span className="font-mono text-xs">{original.metaId}</span> : none,
              },
              { term: "Metadata", value: json(original.metadata) },
            ]}
          />
        </div>
      )}
    </Card>
  );
}
