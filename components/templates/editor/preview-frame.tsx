"use client";

import { useEffect, useRef, useState } from "react";
import { SegmentedControl } from "@/components/ui/segmented-control";

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
      <SegmentedControl
        label="Preview width"
        size="xs"
        options={(Object.keys(WIDTHS) as PreviewWidth[]).map((key) => ({ value: key, label: WIDTHS[key].label }))}
        value={width}
        onChange={setWidth}
      />
      <div ref={box} className="overflow-hidden rounded-md bg-slate-100" style={{ height: FRAME_HEIGHT * scale + 2 }}>
        <iframe
          title={title}
          sandbox=""
          srcDoc={html}
          referrerPolicy="no-referrer"
          data-width={width}
          data-frame-px={framePx}
          className="fixed-palette mx-auto block border border-slate-200 bg-white"
          style={{
            width: framePx,
            height: FRAME_HEIGHT,
            transform: scale < 1 ? `scale(${scale})` : undefined,
            transformOrigin: "top left",
          }}
        />
      </div>
    </div>
  );
}
