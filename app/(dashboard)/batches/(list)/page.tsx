import type { Metadata } from "next";
import { connection } from "next/server";
import { BatchTable } from "@/components/batches/batch-table";
import { KeysetListPage } from "@/components/insights/keyset-list-page";
import type { SearchParams } from "@/components/insights/page-params";
import { PageHeader } from "@/components/ui/page-header";
import { listBatches, parseBatchListQuery } from "@/lib/domain/batches/list-batches";
import { requireDashboard } from "@/app/_lib/dashboard-context";

export const metadata: Metadata = { title: "Batches" };

// The workspace's batch sends, newest first, in keyset pages.
export default async function BatchesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await connection();
  const { workspace } = await requireDashboard();
  return (
    <KeysetListPage
      basePath="/batches"
      header={
        <PageHeader
          title="Batches"
          description="Batch sends (POST /v1/batches), newest first, with their messages by status."
        />
      }
      searchParams={searchParams}
      load={(params) => listBatches(workspace.id, parseBatchListQuery(params))}
      empty={{
        title: "No batches yet",
        body: (
          <>
            Send up to 1,000 messages in one request with <code className="font-mono">POST /v1/batches</code> (or the
            sandbox twin); each batch shows up here.
          </>
        ),
      }}
      table={(items) => <BatchTable batches={items} />}
    />
  );
}
