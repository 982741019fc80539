"use client";

import { useState } from "react";
import { SegmentedControl } from "@/components/ui/segmented-control";

const WIDTHS = {
  desktop: { label: "Desktop", frame: "w-full" },
  mobile: { label: "Mobile (375 px)", frame: "w-[375px] max-w-full" },
} as const;
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
      <SegmentedControl
        label="Preview width"
        options={(Object.keys(WIDTHS) as Width[]).map((key) => ({ value: key, label: WIDTHS[key].label }))}
        value={width}
        onChange={setWidth}
      />
      <div className="rounded-md bg-slate-100 p-2 sm:p-3">
        <iframe
          title={title}
          sandbox=""
          srcDoc={html}
          referrerPolicy="no-referrer"
          data-width={width}
          className={`fixed-palette mx-auto block h-[32rem] rounded border border-slate-200 bg-white ${WIDTHS[width].frame}`}
        />
      </div>
    </div>
  );
}
