"use client";

/**
 * A row of mutually exclusive buttons (desktop/mobile, live/sandbox): each is a real button with
 * aria-pressed, grouped and named for screen readers.
 */
export function SegmentedControl<T extends string>({
  label,
  options,
  value,
  onChange,
  size = "sm",
}: {
  label: string;
  options: ReadonlyArray<{ value: T; label: string }>;
  value: T;
  onChange: (value: T) => void;
  size?: "xs" | "sm";
}) {
  return (
    <div role="group" aria-label={label} className="inline-flex rounded-md ring-1 ring-slate-300 ring-inset">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={value === option.value}
          onClick={() => onChange(option.value)}
          className={`${size === "xs" ? "px-3 py-1 text-xs" : "px-3 py-1.5 text-sm"} font-medium first:rounded-l-md last:rounded-r-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${
            value === option.value ? "bg-indigo-600 text-white" : "bg-white text-slate-700 hover:bg-slate-50"
          }`}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
