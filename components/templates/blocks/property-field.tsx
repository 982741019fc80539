"use client";

import { useId, useState } from "react";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import type { FieldSpec } from "./block-fields";

/** A property's new value; null removes it, so the block falls back to the renderer's default. */
export type FieldValue = string | number | boolean | Record<string, number> | null;

const HEX = /^#[0-9a-fA-F]{6}$/;

/**
 * Local text for inputs whose intermediate states are invalid (a half-typed colour or number): it
 * follows the document when the value changes from outside, and only valid values are committed.
 */
function useDraft(value: string, same: (draft: string, value: string) => boolean): [string, (next: string) => void] {
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    // Our own commit coming back ("1." committed as 1) must not overwrite what is being typed.
    if (!same(draft, value)) setDraft(value);
  }
  return [draft, setDraft];
}

function ColorInput({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: unknown;
  onChange: (next: FieldValue) => void;
}) {
  const [draft, setDraft] = useDraft(
    typeof value === "string" ? value : "",
    (draft, next) => draft.toUpperCase() === next.toUpperCase(),
  );
  const invalid = draft !== "" && !HEX.test(draft);
  const commit = (next: string) => {
    setDraft(next);
    if (next === "") onChange(null);
    else if (HEX.test(next)) onChange(next.toUpperCase());
  };
  return (
    <div className="flex items-center gap-2">
      <input
        type="color"
        aria-label={`${label} picker`}
        // The picker needs some colour; when the property is unset it shows faded.
        className={`h-8 w-10 shrink-0 cursor-pointer rounded border border-slate-300 bg-white p-0.5 ${HEX.test(draft) ? "" : "opacity-30"}`}
        value={HEX.test(draft) ? draft.toLowerCase() : "#000000"}
        onChange={(event) => commit(event.target.value.toUpperCase())}
      />
      <Input
        id={id}
        value={draft}
        placeholder="Default"
        aria-invalid={invalid || undefined}
        onChange={(event) => commit(event.target.value.trim())}
        className="font-mono"
      />
    </div>
  );
}

function NumberInput({
  id,
  value,
  min,
  max,
  label,
  onChange,
}: {
  id: string;
  value: unknown;
  min?: number;
  max?: number;
  label?: string;
  onChange: (next: number | null) => void;
}) {
  const [draft, setDraft] = useDraft(
    typeof value === "number" ? String(value) : "",
    (draft, next) => draft.trim() === next || (draft.trim() !== "" && Number(draft) === Number(next)),
  );
  const commit = (next: string) => {
    setDraft(next);
    const number = Number(next);
    if (next.trim() === "") onChange(null);
    else if (Number.isFinite(number) && (min === undefined || number >= min) && (max === undefined || number <= max))
      onChange(number);
  };
  return (
    <Input
      id={id}
      aria-label={label}
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      value={draft}
      placeholder="Default"
      onChange={(event) => commit(event.target.value)}
    />
  );
}

const SIDES = ["top", "right", "bottom", "left"] as const;

function PaddingInput({ value, onChange }: { value: unknown; onChange: (next: FieldValue) => void }) {
  const current = (value ?? {}) as Partial<Record<(typeof SIDES)[number], number>>;
  const id = useId();
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">Padding (px)</legend>
      <div className="mt-1 grid grid-cols-4 gap-2">
        {SIDES.map((side) => (
          <label key={side} htmlFor={`${id}-${side}`} className="space-y-0.5 text-xs text-slate-600 capitalize">
            <span>{side}</span>
            <NumberInput
              id={`${id}-${side}`}
              min={0}
              value={current[side] ?? 0}
              label={`Padding ${side}`}
              // The format wants all four sides once padding is set.
              onChange={(next) => onChange({ top: 0, right: 0, bottom: 0, left: 0, ...current, [side]: next ?? 0 })}
            />
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function Control({
  id,
  spec,
  value,
  onChange,
}: {
  id: string;
  spec: FieldSpec;
  value: unknown;
  onChange: (next: FieldValue) => void;
}) {
  if (spec.kind === "select") {
    return (
      <Select
        id={id}
        value={value === null || value === undefined ? "" : String(value)}
        onChange={(event) =>
          onChange(event.target.value === "" ? null : spec.numeric ? Number(event.target.value) : event.target.value)
        }
      >
        <option value="">Default</option>
        {spec.options.map(([option, label]) => (
          <option key={option} value={option}>
            {label}
          </option>
        ))}
      </Select>
    );
  }
  if (spec.kind === "number")
    return <NumberInput id={id} value={value} min={spec.min} max={spec.max} onChange={onChange} />;
  if (spec.kind === "color") return <ColorInput id={id} label={spec.label} value={value} onChange={onChange} />;
  if (spec.kind === "textarea")
    return (
      <Textarea
        id={id}
        rows={4}
        value={typeof value === "string" ? value : ""}
        onChange={(event) => onChange(event.target.value)}
      />
    );
  return (
    <Input id={id} value={typeof value === "string" ? value : ""} onChange={(event) => onChange(event.target.value)} />
  );
}

/** One property of the selected block, rendered from its spec. */
export function PropertyField({
  spec,
  value,
  onChange,
}: {
  spec: FieldSpec;
  value: unknown;
  onChange: (next: FieldValue) => void;
}) {
  const id = useId();
  if (spec.kind === "padding") return <PaddingInput value={value} onChange={onChange} />;
  if (spec.kind === "checkbox") {
    return (
      <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          className="h-4 w-4 rounded border-slate-300 text-indigo-600"
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
        />
        {spec.label}
      </label>
    );
  }
  return (
    <Field label={spec.label} htmlFor={id} hint={spec.hint}>
      <Control id={id} spec={spec} value={value} onChange={onChange} />
    </Field>
  );
}
