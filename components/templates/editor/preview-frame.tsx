"use client";

import { useEffect, useRef, useState } from "react";

export type PreviewWidth = "desktop" | "mobile";

const FRAME_HEIGHT = 640;
const WIDTHS: Record<PreviewWidth, { label: string; px: number }> = {
  desktop: { label: "Desktop", px: 600 },
  mobile: { label: "Mobile (375 px)", px: 375 },
};

/**
 * The rendered HTML in a frame with `sandbox=""` (no scripts, forms, same-origin access or top
 * navigation) fed by srcDoc, at a desktop width of at least 600 px or a 375 px phone width. When the
 * column is narrower than the chosen width the frame is scaled down to fit, so the email still lays
 * itself out at the real width instead of reflowing to the column.
 */
export function PreviewFrame({ html, title }: { html: string; title: string }) {
  const [width, setWidth] = useState<PreviewWidth>("desktop");
  const box = useRef<HTMLDivElement>(null);
  const [available, setAvailable] = useState(0);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setAvailable(Math.floor(entry.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const framePx = width === "desktop" ? Math.max(WIDTHS.desktop.px, available) : WIDTHS.mobile.px;
  const scale = available > 0 ? Math.min(1, available / framePx) : 1;

  return (
    <div className="space-y-2">
      <div role="group" aria-label="Preview width" className="inline-flex rounded-md ring-1 ring-slate-300 ring-inset">
        {(Object.keys(WIDTHS) as PreviewWidth[]).map((key) => (
          <button
            key={key}
            type="button"
            aria-pressed={width === key}
            onClick={() => setWidth(key)}
            className={`px-3 py-1 text-xs font-medium first:rounded-l-md last:rounded-r-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${
              width === key ? "bg-indigo-600 text-white" : "bg-white text-slate-700 hover:bg-slate-50"
            }`}
          >
            {WIDTHS[key].label}
          </button>
        ))}
      </div>
      <div ref={box} className="overflow-hidden rounded-md bg-slate-100" style={{ height: FRAME_HEIGHT * scale + 2 }}>
        <iframe
          title={title}
          sandbox=""
          srcDoc={html}
          referrerPolicy="no-referrer"
          data-width={width}
          data-frame-px={framePx}
          className="mx-auto block border border-slate-200 bg-white"
          style={{ width: framePx, height: FRAME_HEIGHT, transform: scale < 1 ? `scale(${scale})` : undefined, transformOrigin: "top left" }}
        />
      </div>
    </div>
  );
}
