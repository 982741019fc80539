import type { ReactNode } from "react";

export interface DescriptionItem {
  term: string;
  value: ReactNode;
}

/** Label/value pairs in two columns; the label column narrows on phones. Terms are field names (code) unless they are words. */
export function DescriptionList({ items, terms = "code" }: { items: DescriptionItem[]; terms?: "code" | "words" }) {
  return (
    <dl className="divide-y divide-slate-100 text-sm">
      {items.map((item) => (
        <div
          key={item.term}
          className="grid grid-cols-[8.5rem_minmax(0,1fr)] gap-3 py-2 first:pt-0 last:pb-0 sm:grid-cols-[12rem_minmax(0,1fr)] sm:gap-4"
        >
          <dt
            className={
              terms === "code" ? "font-mono text-xs leading-5 break-all text-slate-500" : "leading-5 text-slate-500"
            }
          >
            {item.term}
          </dt>
          <dd className="min-w-0 break-words text-slate-900">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
