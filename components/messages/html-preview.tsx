"use client";

import { useState } from "react";

const WIDTHS = { desktop: { label: "Desktop", frame: "w-full" }, mobile: { label: "Mobile (375 px)", frame: "w-[375px] max-w-full" } } as const;
type Width = keyof typeof WIDTHS;

/**
 * A message's HTML as the recipient sees it, in a frame with `sandbox=""`: no scripts, no forms, no
 * same-origin access to the dashboard, no top navigation. srcDoc keeps it off the network path, and
 * widths are classes, not inline styles, so a strict style-src CSP holds.
 */
export function HtmlPreview({ html, title }: { html: string; title: string }) {
  const [width, setWidth] = useState<Width>("desktop");
  return (
    <div className="space-y-3">
      <div role="group" aria-label="Preview width" className="inline-flex rounded-md ring-1 ring-slate-300 ring-inset">
        {(Object.keys(WIDTHS) as Width[]).map((key) => (
          <button
            key={key}
            type="button"
            aria-pressed={width === key}
            onClick={() => setWidth(key)}
            className={`px-3 py-1.5 text-sm font-medium first:rounded-l-md last:rounded-r-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${
              width === key ? "bg-indigo-600 text-white" : "bg-white text-slate-700 hover:bg-slate-50"
            }`}
          >
            {WIDTHS[key].label}
          </button>
        ))}
      </div>
      <div className="rounded-md bg-slate-100 p-2 sm:p-3">
        <iframe
          title={title}
          sandbox=""
          srcDoc={html}
          referrerPolicy="no-referrer"
          data-width={width}
          className={`mx-auto block h-[32rem] rounded border border-slate-200 bg-white ${WIDTHS[width].frame}`}
        />
      </div>
    </div>
  );
}
