import Link from "next/link";

/** Previous/next pages of a bounded, ordered list (a batch's messages): offsets, as the API pages them. */
export function OffsetPager({
  offset,
  limit,
  total,
  hrefFor,
}: {
  offset: number;
  limit: number;
  total: number;
  hrefFor: (offset: number) => string;
}) {
  const style = "rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset ring-slate-300";
  const previous = offset > 0 ? hrefFor(Math.max(0, offset - limit)) : null;
  const next = offset + limit < total ? hrefFor(offset + limit) : null;
  const summary =
    total === 0 || offset >= total
      ? `None of ${total}`
      : `${offset + 1}–${Math.min(offset + limit, total)} of ${total}`;
  return (
    <nav aria-label="Pagination" className="mt-4 flex items-center justify-between gap-3">
      <p className="text-sm text-slate-600 tabular-nums">{summary}</p>
      <div className="flex gap-2">
        {previous !== null ? (
          <Link href={previous} className={`${style} bg-white text-slate-800 hover:bg-slate-50`}>
            ← Previous
          </Link>
        ) : (
          <span aria-disabled className={`${style} text-slate-400`}>
            ← Previous
          </span>
        )}
        {next !== null ? (
          <Link href={next} className={`${style} bg-white text-slate-800 hover:bg-slate-50`}>
            Next →
          </Link>
        ) : (
          <span aria-disabled className={`${style} text-slate-400`}>
            Next →
          </span>
        )}
      </div>
    </nav>
  );
}
