import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { OffsetPager } from "@/components/batches/offset-pager";
import { StatusCounts } from "@/components/batches/status-counts";
import {
  InvalidLink,
  isInvalidParameter,
  isNotFound,
  toUrlParams,
  type SearchParams,
} from "@/components/insights/page-params";
import { MessageTable } from "@/components/messages/message-table";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { DescriptionList } from "@/components/ui/description-list";
import { hrefWith } from "@/components/ui/pager";
import { Timestamp } from "@/components/ui/timestamp";
import { getBatchDetail } from "@/lib/domain/batches/get-batch-detail";
import { listBatchMessages, parseBatchMessageListQuery } from "@/lib/domain/batches/list-batch-messages";
import { listTemplateNames } from "@/lib/domain/templates/list-template-names";
import { requireDashboard } from "@/app/_lib/dashboard-context";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Batch ${(await params).id}` };
}

// One batch of the current workspace: its counts by status and its messages in request order, 100 a page.
export default async function BatchPage({ params, searchParams }: Props) {
  await connection();
  const { id } = await params;
  const { workspace } = await requireDashboard();
  const detail = await getBatchDetail(workspace.id, id).catch((error: unknown) => {
    if (isNotFound(error)) notFound();
    throw error;
  });
  const { batch, counts } = detail;
  let page;
  try {
    page = await listBatchMessages(workspace.id, batch.id, parseBatchMessageListQuery(toUrlParams(await searchParams)));
  } catch (error) {
    if (!isInvalidParameter(error)) throw error;
    page = error;
  }
  const templateNames =
    page instanceof Error
      ? new Map<string, string>()
      : await listTemplateNames(
          workspace.id,
          page.items.map((item) => item.templateId),
        );

  return (
    <div className="space-y-6">
      <div>
        <Link href="/batches" className="text-sm text-indigo-600 hover:underline">
          ← All batches
        </Link>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          {batch.sandbox ? <Badge tone="warning">sandbox</Badge> : <Badge tone="info">live</Badge>}
        </div>
        <h1 className="mt-2 text-xl font-semibold tracking-tight">
          Batch of {batch.count.toLocaleString("en")} {batch.count === 1 ? "message" : "messages"}
        </h1>
        <p className="mt-1 font-mono text-xs break-all text-slate-500">{batch.id}</p>
      </div>
      <Card title="Summary" id="summary">
        <DescriptionList
          terms="words"
          items={[
            { term: "Created", value: <Timestamp value={batch.createdAt} milliseconds /> },
            { term: "Messages", value: batch.count.toLocaleString("en") },
            {
              term: "By API status",
              value: (
                <span data-testid="batch-counts">
                  <StatusCounts counts={counts} />
                </span>
              ),
            },
          ]}
        />
      </Card>
      <Card title="Messages" id="messages" description="In request order.">
        {page instanceof Error ? (
          <InvalidLink error={page} firstPageHref={`/batches/${batch.id}`} />
        ) : (
          <>
            {page.items.length > 0 ? (
              <MessageTable
                rows={page.items}
                templateNames={templateNames}
                label="Messages of the batch, in request order"
              />
            ) : (
              <p className="text-sm text-slate-600">No messages on this page.</p>
            )}
            <OffsetPager
              offset={page.meta.offset}
              limit={page.meta.limit}
              total={page.meta.count}
              hrefFor={(offset) => hrefWith(`/batches/${batch.id}`, { offset: offset || null })}
            />
          </>
        )}
      </Card>
    </div>
  );
}
