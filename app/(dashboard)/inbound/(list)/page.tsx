import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { InboundFilters, type InboundFilterValues } from "@/components/dashboard/inbound/inbound-filters";
import { InboundTable } from "@/components/dashboard/inbound/inbound-table";
import { toInboundListItem } from "@/components/dashboard/inbound/list-item";
import { EmptyState } from "@/components/ui/empty-state";
import { FormMessage } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { hrefWith, Pager } from "@/components/ui/pager";
import { listInboundForDashboard } from "@/lib/domain/inbound/dashboard-inbound-reads";
import { listInboundRoutes } from "@/lib/domain/inbound/list-inbound-routes";
import { INBOUND_SEARCH_PARAMS, parseInboundListSearch } from "@/lib/domain/inbound/inbound-list-search";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { toSearchParams } from "../../emails/search-params";

export const metadata: Metadata = { title: "Inbound" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const FORM_FIELDS = new Set<string>(INBOUND_SEARCH_PARAMS);

// Mail received for the workspace's inbound domains (and replies to its messages), newest first.
export default async function InboundPage({ searchParams }: Props) {
  await connection();
  const { workspace } = await requireDashboard();
  const search = toSearchParams(await searchParams);
  const parsed = parseInboundListSearch(search);
  const [result, routes] = await Promise.all([
    parsed.ok
      ? listInboundForDashboard(workspace.id, parsed.query).then(
          (page) => ({ ok: true as const, page }),
          (error: unknown) => cursorFailure(error),
        )
      : parsed,
    listInboundRoutes(workspace.id, { limit: 100, cursor: null }).then((page) => page.items),
  ]);
  const patterns = new Map(routes.map((route) => [route.id, route.pattern]));
  const values = Object.fromEntries(
    INBOUND_SEARCH_PARAMS.map((name) => [name, search.get(name) ?? ""]),
  ) as InboundFilterValues;
  const filterLink = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ""));
  const filtered = Object.keys(filterLink).length > 0;
  const firstPage = !search.get("cursor.after") && !search.get("cursor.before");
  const fieldError = result.ok ? null : FORM_FIELDS.has(result.param) ? result : null;

  return (
    <div>
      <PageHeader
        title="Inbound"
        description="Mail received for this workspace's inbound domains and replies to its messages, newest first."
        actions={
          <Link href="/inbound/domains" className="text-sm font-medium text-indigo-600 hover:underline">
            Inbound domains and routes
          </Link>
        }
      />
      <InboundFilters values={values} routes={routes} error={fieldError} />
      {!result.ok ? (
        <FormMessage tone="error">
          <span data-testid="filter-error">{result.message}</span>{" "}
          {fieldError ? null : (
            <a href={hrefWith("/inbound", filterLink)} className="font-semibold underline">
              Back to the first page
            </a>
          )}
        </FormMessage>
      ) : (
        <>
          {result.page.items.length === 0 ? (
            <EmptyState
              title={
                filtered ? "No inbound mail matches these filters" : firstPage ? "No inbound mail yet" : "No more mail"
              }
            >
              {filtered ? (
                "Try a wider date range or clear a filter."
              ) : (
                <>
                  Mail to your{" "}
                  <Link href="/inbound/domains" className="underline">
                    inbound domains
                  </Link>{" "}
                  and replies to your messages appear here. On a sent message&apos;s page, &ldquo;Simulate a
                  reply&rdquo; sends one through the inbound listener.
                </>
              )}
            </EmptyState>
          ) : (
            <InboundTable
              rows={result.page.items.map((row) =>
                toInboundListItem(row, row.routeId ? (patterns.get(row.routeId) ?? row.routeId) : null),
              )}
            />
          )}
          <Pager
            summary={`${result.page.items.length} on this page`}
            previousHref={
              result.page.meta["cursor.before"]
                ? hrefWith("/inbound", { ...filterLink, "cursor.before": result.page.meta["cursor.before"] })
                : null
            }
            nextHref={
              result.page.meta["cursor.after"]
                ? hrefWith("/inbound", { ...filterLink, "cursor.after": result.page.meta["cursor.after"] })
                : null
            }
          />
        </>
      )}
    </div>
  );
}

/** A cursor that names no mail of this workspace (expired, or edited by hand) is said in words, not a 500. */
function cursorFailure(error: unknown): { ok: false; param: string; message: string } {
  const failure = error as { code?: string; param?: string; message?: string };
  if (failure.code !== "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR") throw error;
  return { ok: false, param: failure.param ?? "", message: failure.message ?? "That page could not be read." };
}
