import type { ReactNode } from "react";

export function CodeBlock({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <pre
      aria-label={label}
      className="fixed-palette overflow-x-auto rounded-md bg-slate-900 p-3 ring-1 ring-white/10 ring-inset font-mono text-xs leading-relaxed whitespace-pre text-slate-100"
    >
      {children}
    </pre>
  );
}
