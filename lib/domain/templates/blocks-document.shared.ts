import type { BlocksDocument } from "./blocks.shared";
import { defaultBlock, type BlockType } from "./blocks-catalog.shared";

// Pure operations on a block document, each returning a new one (the composer is controlled). Children live in the
// root's `data.childrenIds`, a Container's `props.childrenIds`, or a ColumnsContainer's three `props.columns[n]`.
export type Block = BlocksDocument[string];
type Data = Record<string, unknown>;

export interface BlockSlot {
  parentId: string;
  column?: number;
}
export interface BlockPlace extends BlockSlot {
  index: number;
}
/** What the composer has selected: a block, a column of a columns block, or nothing (the email layout). */
export type BlockSelection = { id: string; column?: number } | null;

export interface ListedBlock {
  id: string;
  type: string;
  depth: number;
  place: BlockPlace;
  siblings: number;
}

function asRecord(value: unknown): Data {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Data) : {};
}

function columnsOf(block: Block): { childrenIds: string[] }[] {
  const columns = Array.isArray(asRecord(block.data.props).columns)
    ? (asRecord(block.data.props).columns as unknown[])
    : [];
  return [0, 1, 2].map((n) => {
    const ids = asRecord(columns[n]).childrenIds;
    return { childrenIds: Array.isArray(ids) ? (ids as string[]) : [] };
  });
}

export function columnsCount(block: Block): 2 | 3 {
  return asRecord(block.data.props).columnsCount === 3 ? 3 : 2;
}

/** The child lists of a block; `hidden` adds the third column of a two-column block (for deletion). */
export function slotsOf(document: BlocksDocument, id: string, hidden = false): BlockSlot[] {
  const block = document[id];
  if (block?.type === "EmailLayout" || block?.type === "Container") return [{ parentId: id }];
  if (block?.type !== "ColumnsContainer") return [];
  return [0, 1, 2].slice(0, hidden ? 3 : columnsCount(block)).map((column) => ({ parentId: id, column }));
}

export function childIds(document: BlocksDocument, slot: BlockSlot): string[] {
  const block = document[slot.parentId];
  if (!block) return [];
  const ids =
    block.type === "EmailLayout"
      ? block.data.childrenIds
      : block.type === "Container"
        ? asRecord(block.data.props).childrenIds
        : columnsOf(block)[slot.column ?? 0]?.childrenIds;
  return Array.isArray(ids) ? (ids as string[]) : [];
}

function withChildIds(document: BlocksDocument, slot: BlockSlot, ids: string[]): BlocksDocument {
  const block = document[slot.parentId];
  if (!block) return document;
  const props = asRecord(block.data.props);
  let data: Data;
  if (block.type === "EmailLayout") data = { ...block.data, childrenIds: ids };
  else if (block.type === "Container") data = { ...block.data, props: { ...props, childrenIds: ids } };
  else
    data = {
      ...block.data,
      props: {
        ...props,
        columns: columnsOf(block).map((column, n) => (n === slot.column ? { childrenIds: ids } : column)),
      },
    };
  return { ...document, [slot.parentId]: { ...block, data } };
}

/** Where a block sits, or null for the root and for blocks no parent lists. */
export function findPlace(document: BlocksDocument, id: string): BlockPlace | null {
  for (const parentId of Object.keys(document)) {
    for (const slot of slotsOf(document, parentId, true)) {
      const index = childIds(document, slot).indexOf(id);
      if (index >= 0) return { ...slot, index };
    }
  }
  return null;
}

/** The block and everything nested in it, guarded against cycles in hand-written documents. */
export function subtreeIds(document: BlocksDocument, id: string, seen = new Set<string>()): string[] {
  if (seen.has(id) || !document[id]) return [];
  seen.add(id);
  return [
    id,
    ...slotsOf(document, id, true).flatMap((slot) =>
      childIds(document, slot).flatMap((child) => subtreeIds(document, child, seen)),
    ),
  ];
}

export function newBlockId(document: BlocksDocument, type: string): string {
  const base = type === "ColumnsContainer" ? "columns" : type.toLowerCase();
  let n = 1;
  while (`${base}-${n}` in document) n += 1;
  return `${base}-${n}`;
}

function insertId(document: BlocksDocument, id: string, place: BlockPlace): BlocksDocument {
  const ids = [...childIds(document, place)];
  ids.splice(Math.max(0, Math.min(place.index, ids.length)), 0, id);
  return withChildIds(document, place, ids);
}

export function insertBlock(
  document: BlocksDocument,
  type: BlockType,
  place: BlockPlace,
): { document: BlocksDocument; id: string } {
  const id = newBlockId(document, type);
  return { document: insertId({ ...document, [id]: defaultBlock(type) }, id, place), id };
}

/** Where the palette adds: after the selected block, into a selected container (at its end) or column. */
export function insertionPlace(document: BlocksDocument, selection: BlockSelection): BlockPlace {
  const atEnd = (slot: BlockSlot): BlockPlace => ({ ...slot, index: childIds(document, slot).length });
  if (!selection || !document[selection.id]) return atEnd({ parentId: "root" });
  if (selection.column !== undefined) return atEnd({ parentId: selection.id, column: selection.column });
  const type = document[selection.id].type;
  if (type === "Container" || type === "EmailLayout") return atEnd({ parentId: selection.id });
  const place = findPlace(document, selection.id);
  return place ? { ...place, index: place.index + 1 } : atEnd({ parentId: "root" });
}

export function removeBlock(document: BlocksDocument, id: string): BlocksDocument {
  const place = findPlace(document, id);
  if (!place) return document;
  const next = {
    ...withChildIds(
      document,
      place,
      childIds(document, place).filter((child) => child !== id),
    ),
  };
  for (const gone of subtreeIds(document, id)) delete next[gone];
  return next;
}

/** Swaps a block with its previous (-1) or next (+1) sibling; unchanged at either end. */
export function moveBlock(document: BlocksDocument, id: string, offset: -1 | 1): BlocksDocument {
  const place = findPlace(document, id);
  if (!place) return document;
  const ids = [...childIds(document, place)];
  const target = place.index + offset;
  if (target < 0 || target >= ids.length) return document;
  [ids[place.index], ids[target]] = [ids[target], ids[place.index]];
  return withChildIds(document, place, ids);
}

/** Moves a block to another place (drag and drop); unchanged when the place is inside the block itself. */
export function moveBlockTo(document: BlocksDocument, id: string, target: BlockPlace): BlocksDocument {
  const place = findPlace(document, id);
  if (!place || subtreeIds(document, id).includes(target.parentId)) return document;
  const sameSlot = place.parentId === target.parentId && (place.column ?? 0) === (target.column ?? 0);
  const removed = withChildIds(
    document,
    place,
    childIds(document, place).filter((child) => child !== id),
  );
  return insertId(removed, id, {
    ...target,
    index: sameSlot && place.index < target.index ? target.index - 1 : target.index,
  });
}

function cloneSubtree(document: BlocksDocument, id: string): { document: BlocksDocument; id: string } {
  const copyId = newBlockId(document, document[id].type);
  let next: BlocksDocument = { ...document, [copyId]: structuredClone(document[id]) };
  for (const slot of slotsOf(document, id, true)) {
    const copies: string[] = [];
    for (const child of childIds(document, slot)) {
      const cloned = cloneSubtree(next, child);
      next = cloned.document;
      copies.push(cloned.id);
    }
    next = withChildIds(next, { ...slot, parentId: copyId }, copies);
  }
  return { document: next, id: copyId };
}

export function duplicateBlock(document: BlocksDocument, id: string): { document: BlocksDocument; id: string } {
  const place = findPlace(document, id);
  if (!place) return { document, id };
  const cloned = cloneSubtree(document, id);
  return { document: insertId(cloned.document, cloned.id, { ...place, index: place.index + 1 }), id: cloned.id };
}

/** Merges into a data group; null or undefined removes the key (back to the renderer's default). */
function merged(current: unknown, patch: Data): Data {
  const next: Data = { ...asRecord(current), ...patch };
  for (const key of Object.keys(patch)) if (patch[key] === null || patch[key] === undefined) delete next[key];
  return next;
}

/** Changes a block's `props` and/or `style`; the root's settings (`data` itself) with `{ layout }`. */
export function updateBlock(
  document: BlocksDocument,
  id: string,
  patch: { props?: Data; style?: Data; layout?: Data },
): BlocksDocument {
  const block = document[id];
  if (!block) return document;
  let data = patch.layout ? merged(block.data, patch.layout) : block.data;
  if (patch.props) data = { ...data, props: merged(data.props, patch.props) };
  if (patch.style) data = { ...data, style: merged(data.style, patch.style) };
  return { ...document, [id]: { ...block, data } };
}

/** Two or three columns; going down to two moves the third column's blocks to the end of the second. */
export function setColumnsCount(document: BlocksDocument, id: string, count: 2 | 3): BlocksDocument {
  if (document[id]?.type !== "ColumnsContainer") return document;
  let next = updateBlock(document, id, { props: { columnsCount: count } });
  const third = childIds(next, { parentId: id, column: 2 });
  if (count === 2 && third.length > 0) {
    next = withChildIds(next, { parentId: id, column: 1 }, [...childIds(next, { parentId: id, column: 1 }), ...third]);
    next = withChildIds(next, { parentId: id, column: 2 }, []);
  }
  return next;
}

export function listBlocks(
  document: BlocksDocument,
  parentId = "root",
  depth = 0,
  seen = new Set<string>(),
): ListedBlock[] {
  return slotsOf(document, parentId).flatMap((slot) => {
    const ids = childIds(document, slot);
    return ids.flatMap((id, index) => {
      if (seen.has(id) || !document[id]) return [];
      seen.add(id);
      const listed: ListedBlock = {
        id,
        type: document[id].type,
        depth,
        place: { ...slot, index },
        siblings: ids.length,
      };
      return [listed, ...listBlocks(document, id, depth + 1, seen)];
    });
  });
}
