import type { DragEvent } from "react";
import { BLOCK_TYPES, type BlockType } from "@/lib/domain/templates/blocks-catalog.shared";

/**
 * Optional drag and drop: a palette item carries the type to add, an outline row the block to move.
 * Our own MIME type keeps drops of text or files from other places out of the document.
 */
export type DragPayload = { add: BlockType } | { move: string };

const MIME = "application/x-postwerk-block";

export function dragSource(payload: DragPayload) {
  return {
    draggable: true,
    onDragStart(event: DragEvent) {
      event.stopPropagation();
      event.dataTransfer.setData(MIME, JSON.stringify(payload));
      event.dataTransfer.effectAllowed = "copyMove";
    },
  };
}

function parse(raw: string): DragPayload | null {
  try {
    const value = JSON.parse(raw) as { add?: unknown; move?: unknown };
    if (typeof value.move === "string") return { move: value.move };
    if (BLOCK_TYPES.includes(value.add as BlockType)) return { add: value.add as BlockType };
  } catch {
    // Not ours.
  }
  return null;
}

export function dropTarget(onDrop: (payload: DragPayload) => void) {
  return {
    onDragOver(event: DragEvent) {
      if (event.dataTransfer.types.includes(MIME)) event.preventDefault();
    },
    onDrop(event: DragEvent) {
      const payload = parse(event.dataTransfer.getData(MIME));
      if (!payload) return;
      event.preventDefault();
      event.stopPropagation();
      onDrop(payload);
    },
  };
}
