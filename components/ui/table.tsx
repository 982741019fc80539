import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";

/**
 * The dashboard's table frame: scrolls sideways on narrow screens instead of squeezing columns. It is
 * `relative` so that absolutely placed content (a visually hidden label) is clipped with the rest
 * instead of widening the page.
 */
export function Table({ children, label }: { children: ReactNode; label: string }) {
  return (
    <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table aria-label={label} className="w-full text-left text-sm">
        {children}
      </table>
    </div>
  );
}

export function THead({ children }: { children: ReactNode }) {
  return (
    <thead className="border-b border-slate-200 bg-slate-50 text-xs font-medium tracking-wide text-slate-500 uppercase">
      <tr>{children}</tr>
    </thead>
  );
}

export function Th({ className = "", ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={`px-4 py-2.5 whitespace-nowrap ${className}`} {...props} />;
}

export function TBody({ children }: { children: ReactNode }) {
  return <tbody className="divide-y divide-slate-100">{children}</tbody>;
}

export function Td({ className = "", ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={`px-4 py-2.5 align-top ${className}`} {...props} />;
}
