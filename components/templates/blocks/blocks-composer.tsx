"use client";

import type { BlocksDocument } from "@/lib/templates/blocks.shared";

export interface BlocksComposerProps {
  value: BlocksDocument;
  onChange: (next: BlocksDocument) => void;
}

/**
 * TEMPORARY STAND-IN (replaced by the visual composer: palette, canvas, properties, reordering).
 * Controlled: the editor shell owns the document, compiles it with blocksToLiquidHtml for the preview
 * and the save.
 */
export function BlocksComposer({ value, onChange }: BlocksComposerProps) {
  return (
    <textarea
      aria-label="Block document (JSON)"
      className="h-96 w-full rounded-md border border-slate-300 p-2 font-mono text-xs"
      defaultValue={JSON.stringify(value, null, 2)}
      onChange={(event) => {
        try {
          onChange(JSON.parse(event.target.value) as BlocksDocument);
        } catch {
          // Ignored until the JSON parses again.
        }
      }}
    />
  );
}
