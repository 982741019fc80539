import { Field, Input, Select } from "@/components/ui/field";
import { waitUnitLabel, type WaitStepDraft, type WaitUnit } from "@/lib/flows/workflows/builder.shared";

const UNITS: WaitUnit[] = ["minutes", "hours", "days"];

/** A wait: an amount and a unit (stored in seconds; seconds appear only for a value the CLI stored). */
export function WaitStep({
  step,
  errors,
  onChange,
}: {
  step: WaitStepDraft;
  errors: Record<string, string>;
  onChange: (patch: Partial<WaitStepDraft>) => void;
}) {
  const id = `step-${step.uid}`;
  const units = step.unit === "seconds" ? [...UNITS, "seconds" as const] : UNITS;
  return (
    <div className="grid gap-3 sm:grid-cols-[10rem_10rem]">
      <Field label="Wait for" htmlFor={`${id}-amount`} error={errors.seconds}>
        <Input
          id={`${id}-amount`}
          type="number"
          inputMode="decimal"
          min={0}
          step="any"
          value={step.amount}
          aria-invalid={Boolean(errors.seconds)}
          onChange={(event) => onChange({ amount: event.target.value })}
        />
      </Field>
      <Field label="Unit" htmlFor={`${id}-unit`}>
        <Select
          id={`${id}-unit`}
          value={step.unit}
          onChange={(event) => onChange({ unit: event.target.value as WaitUnit })}
        >
          {units.map((unit) => (
            <option key={unit} value={unit}>
              {waitUnitLabel(step.amount, unit)}
            </option>
          ))}
        </Select>
      </Field>
    </div>
  );
}
