"use client";

import { useState } from "react";
import type { BlocksDocument } from "@/lib/domain/templates/blocks.shared";
import { blockSummary, type BlockType } from "@/lib/domain/templates/blocks-catalog.shared";
import {
  duplicateBlock,
  findPlace,
  insertBlock,
  insertionPlace,
  moveBlock,
  moveBlockTo,
  removeBlock,
  setColumnsCount,
  updateBlock,
  type BlockPlace,
  type BlockSelection,
} from "@/lib/domain/templates/blocks-document.shared";
import type { FieldSpec } from "./block-fields";
import type { DragPayload } from "./block-drag";
import { BlockOutline } from "./block-outline";
import { BlockPalette } from "./block-palette";
import { BlockProperties } from "./block-properties";
import type { FieldValue } from "./property-field";

export interface BlocksComposerProps {
  value: BlocksDocument;
  onChange: (next: BlocksDocument) => void;
}

/** Where the palette adds, in words, so a click never surprises. */
function targetText(document: BlocksDocument, selection: BlockSelection): string {
  const selected = selection ? document[selection.id] : undefined;
  if (!selection || !selected || selection.id === "root") return "at the end of the email";
  if (selection.column !== undefined) return `into column ${selection.column + 1}`;
  if (selected.type === "Container") return "into the selected container";
  return `after “${blockSummary(selected)}”`;
}

/**
 * The visual blocks composer: a palette, the outline of the blocks (select, reorder, duplicate,
 * delete, optionally drag) and the properties of the selected block. Controlled: the editor shell owns
 * the document, compiles it with blocksToLiquidHtml for the live preview and the save; this only
 * proposes the next document. The selection is the composer's own state.
 */
export function BlocksComposer({ value, onChange }: BlocksComposerProps) {
  const [selection, setSelection] = useState<BlockSelection>(null);

  const add = (type: BlockType, place: BlockPlace = insertionPlace(value, selection)) => {
    const inserted = insertBlock(value, type, place);
    onChange(inserted.document);
    setSelection({ id: inserted.id });
  };

  const actions = {
    select: setSelection,
    move: (id: string, offset: -1 | 1) => onChange(moveBlock(value, id, offset)),
    duplicate: (id: string) => {
      const copy = duplicateBlock(value, id);
      onChange(copy.document);
      setSelection({ id: copy.id });
    },
    remove: (id: string) => {
      const place = findPlace(value, id);
      onChange(removeBlock(value, id));
      // Selecting the parent keeps the palette adding where the user was working.
      setSelection(place && place.parentId !== "root" ? { id: place.parentId, column: place.column } : null);
    },
    drop: (payload: DragPayload, place: BlockPlace) => {
      if ("add" in payload) add(payload.add, place);
      else onChange(moveBlockTo(value, payload.move, place));
    },
  };

  const change = (id: string, spec: FieldSpec, next: FieldValue) => {
    if (id !== "root" && spec.key === "columnsCount") onChange(setColumnsCount(value, id, next === 3 ? 3 : 2));
    else onChange(updateBlock(value, id, { [spec.group]: { [spec.key]: next } }));
  };

  return (
    <div className="@container">
      <div className="grid gap-4 @xl:grid-cols-2">
        <div className="space-y-4">
          <BlockPalette target={targetText(value, selection)} onAdd={(type) => add(type)} />
          <BlockOutline document={value} selection={selection} actions={actions} />
        </div>
        <div className="rounded-md border border-slate-200 bg-slate-50/50 p-3">
          <BlockProperties document={value} selection={selection} onChange={change} />
        </div>
      </div>
    </div>
  );
}
