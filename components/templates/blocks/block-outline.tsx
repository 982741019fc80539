"use client";

import type { BlocksDocument } from "@/lib/domain/templates/blocks.shared";
import { blockSummary } from "@/lib/domain/templates/blocks-catalog.shared";
import {
  childIds,
  columnsCount,
  type BlockPlace,
  type BlockSelection,
  type BlockSlot,
} from "@/lib/domain/templates/blocks-document.shared";
import { dragSource, dropTarget, type DragPayload } from "./block-drag";
import { OutlineIcon, type OutlineIconName } from "./outline-icons";

export interface OutlineActions {
  select: (selection: BlockSelection) => void;
  move: (id: string, offset: -1 | 1) => void;
  duplicate: (id: string) => void;
  remove: (id: string) => void;
  drop: (payload: DragPayload, place: BlockPlace) => void;
}

interface Context {
  document: BlocksDocument;
  selection: BlockSelection;
  actions: OutlineActions;
}

// Hand-written documents could nest absurdly deep (or loop); the outline stops there.
const MAX_DEPTH = 12;

const selectable = (selected: boolean) =>
  `min-w-0 flex-1 truncate rounded px-1.5 py-1 text-left text-sm focus-visible:outline-2 focus-visible:outline-indigo-600 ${selected ? "font-semibold text-indigo-800" : "text-slate-800"}`;

function Action({
  label,
  icon,
  disabled,
  onClick,
}: {
  label: string;
  icon: OutlineIconName;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
      className="rounded p-1 text-slate-600 hover:bg-slate-200 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-30"
    >
      <OutlineIcon name={icon} />
    </button>
  );
}

function BlockList({
  slot,
  depth,
  context,
  empty,
}: {
  slot: BlockSlot;
  depth: number;
  context: Context;
  empty: string;
}) {
  const ids = childIds(context.document, slot).filter((id) => context.document[id]);
  const append = dropTarget((payload) => context.actions.drop(payload, { ...slot, index: ids.length }));
  return (
    <ul className={`space-y-1 ${depth > 0 ? "ml-3 border-l border-slate-200 pl-2" : ""}`} {...append}>
      {ids.map((id, index) => (
        <BlockNode
          key={id}
          id={id}
          place={{ ...slot, index }}
          last={index === ids.length - 1}
          depth={depth}
          context={context}
        />
      ))}
      {ids.length === 0 ? (
        <li className="rounded border border-dashed border-slate-300 px-2 py-1.5 text-xs text-slate-500">{empty}</li>
      ) : null}
    </ul>
  );
}

function BlockNode({
  id,
  place,
  last,
  depth,
  context,
}: {
  id: string;
  place: BlockPlace;
  last: boolean;
  depth: number;
  context: Context;
}) {
  const { document, selection, actions } = context;
  const block = document[id];
  const summary = blockSummary(block);
  const selected = selection?.id === id && selection.column === undefined;
  const after = dropTarget((payload) => actions.drop(payload, { ...place, index: place.index + 1 }));
  return (
    <li>
      <div
        data-testid="block-row"
        data-block-id={id}
        className={`flex items-center gap-0.5 rounded-md pr-1 ring-1 ring-inset ${selected ? "bg-indigo-50 ring-indigo-300" : "bg-white ring-slate-200 hover:bg-slate-50"}`}
        {...dragSource({ move: id })}
        {...after}
      >
        <button
          type="button"
          aria-pressed={selected}
          className={selectable(selected)}
          onClick={() => actions.select({ id })}
        >
          {summary}
        </button>
        <Action
          label={`Move up: ${summary}`}
          disabled={place.index === 0}
          icon="up"
          onClick={() => actions.move(id, -1)}
        />
        <Action label={`Move down: ${summary}`} disabled={last} icon="down" onClick={() => actions.move(id, 1)} />
        <Action label={`Duplicate: ${summary}`} icon="duplicate" onClick={() => actions.duplicate(id)} />
        <Action label={`Delete: ${summary}`} icon="delete" onClick={() => actions.remove(id)} />
      </div>
      {depth >= MAX_DEPTH ? null : block.type === "Container" ? (
        <div className="mt-1">
          <BlockList
            slot={{ parentId: id }}
            depth={depth + 1}
            context={context}
            empty="Empty: select the container, then add a block."
          />
        </div>
      ) : block.type === "ColumnsContainer" ? (
        <div className="mt-1 ml-3 space-y-1 border-l border-slate-200 pl-2">
          {[0, 1, 2].slice(0, columnsCount(block)).map((column) => {
            const columnSelected = selection?.id === id && selection.column === column;
            const into = dropTarget((payload) =>
              actions.drop(payload, {
                parentId: id,
                column,
                index: childIds(document, { parentId: id, column }).length,
              }),
            );
            return (
              <div key={column} data-testid="block-column" className="space-y-1">
                <div
                  className={`flex rounded-md ${columnSelected ? "bg-indigo-50 ring-1 ring-indigo-300 ring-inset" : ""}`}
                  {...into}
                >
                  <button
                    type="button"
                    aria-pressed={columnSelected}
                    className={`${selectable(columnSelected)} text-xs`}
                    onClick={() => actions.select({ id, column })}
                  >
                    Column {column + 1}
                  </button>
                </div>
                <BlockList
                  slot={{ parentId: id, column }}
                  depth={depth + 1}
                  context={context}
                  empty="Empty: select the column, then add a block."
                />
              </div>
            );
          })}
        </div>
      ) : null}
    </li>
  );
}

/** The blocks in email order as a nested, selectable list, each with move, duplicate and delete. */
export function BlockOutline({ document, selection, actions }: Context) {
  const context = { document, selection, actions };
  return (
    <nav aria-label="Blocks" className="space-y-1">
      <button
        type="button"
        aria-pressed={selection === null}
        className={`${selectable(selection === null)} w-full rounded-md ring-1 ring-inset ${selection === null ? "bg-indigo-50 ring-indigo-300" : "ring-slate-200 hover:bg-slate-50"}`}
        onClick={() => actions.select(null)}
      >
        Email layout
      </button>
      <BlockList
        slot={{ parentId: "root" }}
        depth={0}
        context={context}
        empty="No blocks yet: add one from the palette."
      />
    </nav>
  );
}
