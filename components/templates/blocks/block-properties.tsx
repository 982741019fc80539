"use client";

import { useId } from "react";
import type { BlocksDocument } from "@/lib/domain/templates/blocks.shared";
import { BLOCK_TYPE_LABELS } from "@/lib/domain/templates/blocks-catalog.shared";
import type { BlockSelection } from "@/lib/domain/templates/blocks-document.shared";
import { BLOCK_FIELDS, LAYOUT_FIELDS, type FieldSpec } from "./block-fields";
import { PropertyField, type FieldValue } from "./property-field";

function valueOf(data: Record<string, unknown>, spec: FieldSpec): unknown {
  if (spec.group === "layout") return data[spec.key];
  const group = data[spec.group];
  return group && typeof group === "object" ? (group as Record<string, unknown>)[spec.key] : undefined;
}

/**
 * The properties of the selected block, or the email layout's settings when nothing is selected.
 * Keyed by the block id so each field's local draft starts from the newly selected block.
 */
export function BlockProperties({
  document,
  selection,
  onChange,
}: {
  document: BlocksDocument;
  selection: BlockSelection;
  onChange: (id: string, spec: FieldSpec, value: FieldValue) => void;
}) {
  const titleId = useId();
  const id = selection && document[selection.id] ? selection.id : "root";
  const block = document[id];
  const fields = id === "root" ? LAYOUT_FIELDS : BLOCK_FIELDS[block?.type ?? ""];
  const title = id === "root" ? "Email layout" : (BLOCK_TYPE_LABELS[block.type] ?? block.type);
  return (
    <section aria-labelledby={titleId} className="space-y-3" key={id}>
      <header>
        <h3 id={titleId} className="text-sm font-semibold text-slate-900">
          {title} properties
        </h3>
        {selection?.column !== undefined ? (
          <p className="text-xs text-slate-500">New blocks go into column {selection.column + 1}.</p>
        ) : id === "root" ? (
          <p className="text-xs text-slate-500">Select a block in the outline to edit it.</p>
        ) : null}
      </header>
      {fields ? (
        fields.map((spec) => (
          <PropertyField
            key={`${spec.group}.${spec.key}`}
            spec={spec}
            value={block ? valueOf(block.data, spec) : undefined}
            onChange={(value) => onChange(id, spec, value)}
          />
        ))
      ) : (
        <p className="text-sm text-slate-600">This block type has no editable properties here.</p>
      )}
    </section>
  );
}
