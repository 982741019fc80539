import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import {
  InboundActionsCard,
  InboundAttachmentsCard,
  InboundChecksCard,
  InboundFieldsCard,
} from "@/components/dashboard/inbound/inbound-detail-cards";
import { OriginalMessageCard } from "@/components/dashboard/inbound/original-message-card";
import { fromLabel } from "@/components/dashboard/inbound/inbound-table";
import { InboundStatusBadge, VerdictChips } from "@/components/dashboard/inbound/verdict-chips";
import { EraseInboundButton } from "@/components/dashboard/inbound/erase-inbound-button";
import { HtmlPreview } from "@/components/messages/html-preview";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { getInboundForDashboard } from "@/lib/domain/inbound/dashboard-inbound-reads";
import { getInboundRouteOrThrow } from "@/lib/domain/inbound/get-inbound-route";
import { AppError } from "@/lib/foundation/errors";
import { hasRole } from "@/lib/foundation/access/roles.shared";
import { getMessageDetail } from "@/lib/domain/messages/get-message-detail";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { eraseInboundMessageAction } from "./actions";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Inbound ${(await params).id}` };
}

const PRE =
  "max-h-[28rem] overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-slate-800";

/** A lookup that throws NOT_FOUND for an unknown or foreign id, as null (the page's 404). */
async function orNull<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

/**
 * Mail from strangers: besides the frame's sandbox (no scripts), a CSP in the document itself blocks every
 * remote fetch (tracking pixels, fonts), so opening the page tells the sender nothing.
 */
function withoutRemoteContent(html: string): string {
  return `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:">${html}`;
}

// One inbound mail: its checks, the reply without the quoted text beside the whole text, and the message it answers.
export default async function InboundMessagePage({ params }: Props) {
  await connection();
  const { id } = await params;
  const { workspace, role } = await requireDashboard();
  const message = await getInboundForDashboard(workspace.id, id);
  if (!message) notFound();
  const [detail, route] = await Promise.all([
    message.originalMessageId ? getMessageDetail(workspace.id, message.originalMessageId) : null,
    message.routeId ? orNull(getInboundRouteOrThrow(workspace.id, message.routeId)) : null,
  ]);
  const original = detail?.message ?? null;
  const purged = message.contentPurgedAt !== null;

  return (
    <div className="space-y-6">
      <div>
        <Link href="/inbound" className="text-sm text-indigo-600 hover:underline">
          ← All inbound mail
        </Link>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <InboundStatusBadge status={message.status} reason={message.quarantineReason} />
          <VerdictChips verdicts={message} />
        </div>
        <h1 className="mt-2 text-xl font-semibold tracking-tight break-words text-slate-900">
          {message.subject || (purged ? "(content removed)" : "(no subject)")}
        </h1>
        <p className="mt-1 text-sm break-all text-slate-700">From {fromLabel(message)}</p>
        <div className="mt-1 flex flex-wrap items-center gap-2">
          <p className="font-mono text-xs break-all text-slate-500">{message.id}</p>
          <CopyButton value={message.id} label="Copy the inbound message id" />
          {message.threadId ? (
            <Link
              href={`/inbound/threads/${message.threadId}`}
              className="text-sm text-indigo-600 hover:underline"
              data-testid="thread-link"
            >
              Open the thread
            </Link>
          ) : null}
          {!purged && hasRole(role, "ADMIN") ? (
            <EraseInboundButton id={message.id} action={eraseInboundMessageAction} />
          ) : null}
        </div>
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="The reply" id="reply" description="The new text, without the quoted message and the signature.">
          {message.strippedText ? (
            <pre className={PRE} data-testid="stripped-reply">
              {message.strippedText}
            </pre>
          ) : (
            <p className="text-sm text-slate-600">{purged ? "Content removed." : "No text part."}</p>
          )}
          {message.strippedSignature ? (
            <details className="mt-3">
              <summary className="cursor-pointer text-xs font-medium text-slate-700">Signature</summary>
              <pre className={`${PRE} mt-2`}>{message.strippedSignature}</pre>
            </details>
          ) : null}
        </Card>
        <Card title="Full text" id="text" description="The text part as received, quotes included.">
          {message.textBody ? (
            <pre className={PRE} data-testid="full-text">
              {message.textBody}
            </pre>
          ) : (
            <p className="text-sm text-slate-600">{purged ? "Content removed." : "No text part."}</p>
          )}
        </Card>
      </div>

      <OriginalMessageCard
        originalId={message.originalMessageId}
        original={
          original
            ? {
                id: original.id,
                subject: original.subject,
                to: original.to,
                sentAt: original.sentAt,
                createdAt: original.createdAt,
                templateId: original.serviceTemplateId,
                templateName: original.templateName,
                workflowRunId: original.workflowRunId,
                metaId: original.metaId,
                metadata: original.metadata,
              }
            : null
        }
      />

      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <InboundFieldsCard
          message={message}
          route={
            route ? (
              <Link
                href={`/inbound/domains/${route.inboundDomainId}`}
                className="break-all text-indigo-700 hover:underline"
              >
                {route.pattern}
              </Link>
            ) : (
              <span className="text-slate-500">none matched: stored only</span>
            )
          }
        />
        <InboundChecksCard message={message} />
      </div>

      {message.htmlBody ? (
        <Card
          title="HTML"
          id="html"
          description="Rendered in a sandbox: no scripts, no access to this page, no remote images (they could tell the sender you read it)."
        >
          <HtmlPreview html={withoutRemoteContent(message.htmlBody)} title="HTML body of the inbound mail" />
        </Card>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-2">
        <InboundAttachmentsCard
          attachments={message.attachments}
          hrefOf={(attachmentId) => `/inbound/${message.id}/attachments/${attachmentId}`}
        />
        <InboundActionsCard results={message.actionResults} />
      </div>
    </div>
  );
}
