import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { TagChips } from "@/components/messages/tag-chips";
import { HtmlPreview } from "@/components/messages/html-preview";
import { DeveloperDetails } from "@/components/messages/developer-details";
import { EventBadge } from "@/components/messages/event-badge";
import {
  dataItems,
  developerItems,
  envelopeItems,
  formatBytes,
  json,
  timestampItems,
} from "@/components/messages/message-fields";
import { MessageTimeline } from "@/components/messages/message-timeline";
import { ResendButton } from "@/components/messages/resend-button";
import { SimulatorNote } from "@/components/messages/simulator-addresses";
import { ApiStatusNote, DeliveryBadge } from "@/components/messages/delivery-badge";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code-block";
import { CopyButton } from "@/components/ui/copy-button";
import { DescriptionList } from "@/components/ui/description-list";
import { Timestamp } from "@/components/ui/timestamp";
import { env } from "@/lib/foundation/env";
import { getInboxMessage } from "@/lib/domain/inbox/get-inbox-message";
import { getMessageDetail, type MessageDetail } from "@/lib/domain/messages/get-message-detail";
import { plural } from "@/lib/foundation/plural.shared";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { hasRole } from "@/lib/foundation/access/roles.shared";
import { ScheduleControls } from "@/components/messages/schedule-controls";
import { MessageDeliveries } from "@/components/webhooks/message-deliveries";
import { listMessageDeliveries } from "@/lib/flows/webhooks/list-message-deliveries";
import { MessageReplies } from "@/components/dashboard/inbound/message-replies";
import { toInboundListItem } from "@/components/dashboard/inbound/list-item";
import { SimulateReplyButton } from "@/components/dashboard/inbound/simulate-reply-button";
import { listInboundForDashboard } from "@/lib/domain/inbound/dashboard-inbound-reads";
import { cancelMessageAction, rescheduleMessageAction, resendMessageAction } from "./actions";
import { simulateReplyAction } from "./reply-actions";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Email ${(await params).id}` };
}

// One message of the current workspace: what happened to it (timeline), what was sent, and every field.
export default async function EmailPage({ params }: Props) {
  await connection();
  const { id } = await params;
  const { workspace, role } = await requireDashboard();
  const [detail, inbox, webhooks, replies] = await Promise.all([
    getMessageDetail(workspace.id, id),
    getInboxMessage(workspace.id, id),
    listMessageDeliveries(workspace.id, id),
    listInboundForDashboard(workspace.id, { originalMessageId: id, limit: 50, cursor: null, createdAt: {} }),
  ]);
  if (!detail) notFound();
  const { message, events, eventCount } = detail;
  const gone = contentGone(message);
  const latest = events[0];

  return (
    <div className="space-y-6">
      <div>
        <Link href="/emails" className="text-sm text-indigo-600 hover:underline">
          ← All emails
        </Link>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <DeliveryBadge message={message} />
          <ApiStatusNote status={message.status} />
          <Badge>{message.source}</Badge>
          {message.sandbox ? <Badge tone="warning">sandbox</Badge> : null}
        </div>
        <h1 className="mt-2 text-xl font-semibold tracking-tight break-words text-slate-900">
          {message.subject || (gone ? "(content erased)" : "(no subject)")}
        </h1>
        <div className="mt-1 flex flex-wrap items-center gap-2">
          <p className="font-mono text-xs break-all text-slate-500">{message.id}</p>
          <CopyButton value={message.id} label="Copy the message id" />
        </div>
        <TagChips tags={message.tags} className="mt-2" />
        <ResendLinks message={message} />
        <SimulatorNote message={message} />
        {message.scheduledAt ? (
          <p className="mt-2 text-sm text-slate-700" data-testid="scheduled-for">
            {waiting(message) ? "Scheduled for " : "Was scheduled for "}
            <Timestamp value={message.scheduledAt} />
          </p>
        ) : null}
        {message.scheduledAt && waiting(message) && hasRole(role, "ADMIN") ? (
          <ScheduleControls
            cancelAction={cancelMessageAction}
            rescheduleAction={rescheduleMessageAction}
            messageId={message.id}
          />
        ) : null}
        {gone ? null : (
          <div className="mt-3">
            <ResendButton action={resendMessageAction} messageId={message.id} sandbox={message.sandbox} />
          </div>
        )}
        {latest ? (
          <p
            className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700"
            data-testid="latest-event"
          >
            <span className="text-slate-500">Latest:</span>
            <EventBadge code={latest.code} message={latest.message} />
            <span className="text-slate-500">
              <Timestamp value={latest.createdAt} />
            </span>
          </p>
        ) : null}
      </div>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card title="Message" id="fields">
          <DescriptionList
            terms="words"
            items={envelopeItems(message, gone && !message.subject ? <Gone text={gone} /> : message.subject || "—")}
          />
        </Card>
        {/* On phones the timeline comes first: it is what people open this page for. */}
        <div className="order-first min-w-0 lg:order-none">
          <Card
            title="Timeline"
            id="timeline"
            description={
              eventCount > events.length
                ? `Newest ${events.length} of ${eventCount} events`
                : `${eventCount} events, newest first`
            }
          >
            <MessageTimeline events={events} />
          </Card>
        </div>
      </div>

      <MessageDeliveries deliveries={webhooks.deliveries} hasEndpoints={webhooks.hasEndpoints} />

      <MessageReplies
        replies={replies.items.map((reply) => toInboundListItem(reply, null))}
        threadId={replies.items.find((reply) => reply.threadId)?.threadId ?? null}
        simulate={
          message.sandbox || gone ? null : <SimulateReplyButton action={simulateReplyAction} messageId={message.id} />
        }
      />

      <Card title="Preview" id="html" description="Rendered in a sandbox: no scripts, no access to this page.">
        {message.bodyHtml ? (
          <HtmlPreview html={message.bodyHtml} title="HTML body of the message" />
        ) : (
          <Gone text={gone ?? "This message has no HTML part."} />
        )}
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Text" id="text">
          {message.bodyText ? (
            <pre className="max-h-[28rem] overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-slate-800">
              {message.bodyText}
            </pre>
          ) : (
            <Gone text={gone ?? "This message has no text part."} />
          )}
        </Card>
        <Card title="Variables, metadata, attachments" id="data">
          <DescriptionList
            terms="words"
            items={dataItems(message, gone ? <Gone text={gone} /> : json(message.variables))}
          />
        </Card>
      </div>

      {inbox ? (
        <Card
          title="Raw MIME"
          id="raw"
          description="Exactly what the local provider delivered."
          actions={
            <Link href={`/inbox?id=${message.id}`} className="text-sm text-indigo-600 hover:underline">
              Open in the local inbox
            </Link>
          }
        >
          {inbox.mime ? (
            <details>
              <summary className="cursor-pointer text-sm font-medium text-slate-800">
                Show the raw message ({formatBytes(inbox.mime.length)})
              </summary>
              <div className="mt-3">
                <CodeBlock label="Raw MIME of the message">{inbox.mime}</CodeBlock>
              </div>
            </details>
          ) : (
            <Gone text={gone ?? "The stored MIME was removed."} />
          )}
        </Card>
      ) : null}

      <Card
        title="Timestamps"
        id="timestamps"
        description="In your time zone (UTC on hover); a dash means it has not happened."
      >
        <DescriptionList terms="words" items={timestampItems(message)} />
      </Card>

      <DeveloperDetails fields={developerItems(message)} events={events} />
    </div>
  );
}

/** The link between a resend and its original, both ways (lib/sending/resend-message.ts). */
function ResendLinks({ message }: { message: MessageDetail }) {
  if (!message.resentFromId && message.resentAs.length === 0) return null;
  const link = (id: string) => (
    <Link key={id} href={`/emails/${id}`} className="font-mono text-indigo-600 hover:underline">
      {id}
    </Link>
  );
  return (
    <div className="mt-2 space-y-1 text-sm text-slate-700">
      {message.resentFromId ? <p data-testid="resent-from">Resent from {link(message.resentFromId)}</p> : null}
      {message.resentAs.length > 0 ? (
        <p data-testid="resent-as">
          Resent as{" "}
          {message.resentAs.map((id, index) => (
            <span key={id}>
              {index > 0 ? ", " : null}
              {link(id)}
            </span>
          ))}
        </p>
      ) : null}
    </div>
  );
}

/** Still waiting for delivery: what Cancel and Reschedule need (the use cases re-check under the row lock). */
function waiting(message: MessageDetail): boolean {
  return (
    !message.sandbox &&
    (message.status === "PENDING" || message.status === "PAUSED") &&
    !message.handedOverAt &&
    !message.sentAt
  );
}

/** Why a content pane is empty: erased by an admin, or purged by retention after N days. */
function contentGone(message: MessageDetail): string | null {
  if (message.status === "DELETED")
    return "Content erased: the bodies and variables of this message were deleted; its metadata and timeline stay.";
  if (message.contentPurgedAt) {
    const days = env().RETENTION_DAYS;
    return `Content purged after ${plural(days, "day")} (on ${message.contentPurgedAt.toISOString().slice(0, 10)}), as the retention setting says; metadata and timeline stay.`;
  }
  return null;
}

function Gone({ text }: { text: ReactNode }) {
  return (
    <p
      className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-600 ring-1 ring-slate-200 ring-inset"
      data-testid="content-gone"
    >
      {text}
    </p>
  );
}
