import Link from "next/link";

/**
 * Previous/next links for server-rendered pages; the hrefs carry every filter (built by the page
 * from its searchParams), so a page is a plain, shareable URL. Null disables a direction.
 */
export function Pager({
  previousHref,
  nextHref,
  summary,
}: {
  previousHref: string | null;
  nextHref: string | null;
  summary?: string;
}) {
  const style = "rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset ring-slate-300";
  return (
    <nav aria-label="Pagination" className="mt-4 flex items-center justify-between gap-3">
      <p className="text-sm text-slate-600">{summary}</p>
      <div className="flex gap-2">
        {previousHref ? (
          <Link href={previousHref} className={`${style} bg-white text-slate-800 hover:bg-slate-50`}>
            ← Newer
          </Link>
        ) : (
          <span aria-disabled className={`${style} text-slate-400`}>
            ← Newer
          </span>
        )}
        {nextHref ? (
          <Link href={nextHref} className={`${style} bg-white text-slate-800 hover:bg-slate-50`}>
            Older →
          </Link>
        ) : (
          <span aria-disabled className={`${style} text-slate-400`}>
            Older →
          </span>
        )}
      </div>
    </nav>
  );
}

/** `base?a=1&b=2` from a record, dropping empty values: how pages build their filter and page links. */
export function hrefWith(base: string, params: Record<string, string | number | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== "") query.set(key, String(value));
  }
  const text = query.toString();
  return text ? `${base}?${text}` : base;
}
