import type { ReactNode } from "react";
import { EmptyState } from "@/components/ui/empty-state";
import { hrefWith, Pager } from "@/components/ui/pager";
import { InvalidLink, isInvalidParameter, toUrlParams, type SearchParams } from "./page-params";

interface KeysetPage<T> {
  items: T[];
  meta: { count: number; "cursor.after": string | null; "cursor.before": string | null };
}

/**
 * The shape of a dashboard list read in keyset pages (batches, workflow runs): the header, the rows or
 * an empty state, Newer/Older links, and a plain message for a stale or hand-edited cursor.
 */
export async function KeysetListPage<T>({
  basePath,
  header,
  searchParams,
  load,
  empty,
  table,
}: {
  basePath: string;
  header: ReactNode;
  searchParams: Promise<SearchParams>;
  load: (params: URLSearchParams) => Promise<KeysetPage<T>>;
  empty: { title: string; body: ReactNode };
  table: (items: T[]) => ReactNode;
}) {
  let page: KeysetPage<T>;
  try {
    page = await load(toUrlParams(await searchParams));
  } catch (error) {
    if (!isInvalidParameter(error)) throw error;
    return (
      <div>
        {header}
        <InvalidLink error={error} firstPageHref={basePath} />
      </div>
    );
  }
  const { items, meta } = page;
  return (
    <div>
      {header}
      {items.length === 0 && !meta["cursor.before"] ? (
        <EmptyState title={empty.title}>{empty.body}</EmptyState>
      ) : (
        <>
          {table(items)}
          <Pager
            previousHref={meta["cursor.before"] ? hrefWith(basePath, { "cursor.before": meta["cursor.before"] }) : null}
            nextHref={meta["cursor.after"] ? hrefWith(basePath, { "cursor.after": meta["cursor.after"] }) : null}
            summary={`${meta.count} on this page`}
          />
        </>
      )}
    </div>
  );
}
