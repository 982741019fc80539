"use client";

import { BLOCK_TYPE_LABELS, PALETTE_BLOCK_TYPES, type BlockType } from "@/lib/domain/templates/blocks-catalog.shared";
import { dragSource } from "./block-drag";

/** The blocks that can be added: click adds at the insertion point, or drag one onto the outline. */
export function BlockPalette({ target, onAdd }: { target: string; onAdd: (type: BlockType) => void }) {
  return (
    <section aria-label="Add a block" className="space-y-2">
      <div className="grid grid-cols-3 gap-1.5">
        {PALETTE_BLOCK_TYPES.map((type) => (
          <button
            key={type}
            type="button"
            aria-label={`Add ${BLOCK_TYPE_LABELS[type].toLowerCase()}`}
            title={`Add ${BLOCK_TYPE_LABELS[type].toLowerCase()} ${target}`}
            className="cursor-grab rounded-md bg-white px-2 py-1.5 text-xs font-medium text-slate-800 ring-1 ring-slate-300 ring-inset hover:bg-indigo-50 hover:ring-indigo-300 focus-visible:outline-2 focus-visible:outline-indigo-600"
            onClick={() => onAdd(type)}
            {...dragSource({ add: type })}
          >
            + {BLOCK_TYPE_LABELS[type]}
          </button>
        ))}
      </div>
      <p className="text-xs text-slate-500">New blocks go {target}.</p>
    </section>
  );
}
