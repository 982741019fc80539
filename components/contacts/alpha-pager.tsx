import Link from "next/link";

/** Previous/next for alphabetical lists (contacts, suppressions); null disables a direction. */
export function AlphaPager({ previousHref, nextHref }: { previousHref: string | null; nextHref: string | null }) {
  if (!previousHref && !nextHref) return null;
  const style = "rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset ring-slate-300";
  const link = (href: string | null, label: string) =>
    href ? (
      <Link href={href} className={`${style} bg-white text-slate-800 hover:bg-slate-50`}>
        {label}
      </Link>
    ) : (
      <span aria-disabled className={`${style} text-slate-400`}>
        {label}
      </span>
    );
  return (
    <nav aria-label="Pagination" className="mt-4 flex justify-end gap-2">
      {link(previousHref, "← Previous")}
      {link(nextHref, "Next →")}
    </nav>
  );
}
