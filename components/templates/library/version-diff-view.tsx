import type { DiffRow, FieldDiff } from "@/lib/domain/templates/version-diff.shared";

const ROW_STYLE = {
  add: { row: "bg-emerald-50", sign: "+", mark: "bg-emerald-200", text: "text-emerald-900" },
  remove: { row: "bg-red-50", sign: "−", mark: "bg-red-200", text: "text-red-900" },
  same: { row: "", sign: " ", mark: "", text: "text-slate-700" },
} as const;

/**
 * A unified diff, field by field: removed lines (red, −) above the lines that replace them (green, +),
 * the words that differ marked darker, long unchanged runs folded. Added and removed text are <ins> and
 * <del>, so screen readers announce them.
 */
export function VersionDiffView({
  fields,
  fromLabel,
  toLabel,
}: {
  fields: FieldDiff[];
  fromLabel: string;
  toLabel: string;
}) {
  const changed = fields.filter((field) => field.changed);
  if (changed.length === 0) {
    return (
      <p className="text-sm text-slate-600" data-testid="diff-empty">
        No differences: {fromLabel} and {toLabel} have the same content.
      </p>
    );
  }
  return (
    <div className="space-y-4" data-testid="version-diff">
      <p className="text-xs text-slate-500">
        <span className="font-mono text-red-700">−</span> only in {fromLabel} ·{" "}
        <span className="font-mono text-emerald-700">+</span> only in {toLabel}
      </p>
      {changed.map((field) => (
        <section key={field.field} aria-label={`Changes to ${field.label}`} data-field={field.field}>
          <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">{field.label}</h3>
          <div className="overflow-x-auto rounded-md border border-slate-200 bg-white font-mono text-xs leading-5">
            {field.rows.map((row, index) => (
              <DiffLine key={index} row={row} />
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}

function DiffLine({ row }: { row: DiffRow }) {
  if (row.type === "gap") {
    return (
      <div className="bg-slate-50 px-3 py-0.5 text-slate-500 italic">
        ⋯ {row.skipped} unchanged {row.skipped === 1 ? "line" : "lines"}
      </div>
    );
  }
  const style = ROW_STYLE[row.type];
  const content = row.segments.map((segment, index) =>
    segment.changed ? (
      <mark key={index} className={`rounded-sm ${style.mark} ${style.text}`}>
        {segment.text}
      </mark>
    ) : (
      <span key={index}>{segment.text}</span>
    ),
  );
  return (
    <div className={`flex min-w-max ${style.row}`} data-diff={row.type}>
      <span className="w-10 shrink-0 px-1 text-right text-slate-400 select-none">{row.oldLine ?? ""}</span>
      <span className="w-10 shrink-0 px-1 text-right text-slate-400 select-none">{row.newLine ?? ""}</span>
      <span className={`w-5 shrink-0 text-center select-none ${style.text}`} aria-hidden>
        {style.sign}
      </span>
      <span className={`pr-3 whitespace-pre ${style.text}`}>
        {row.type === "add" ? (
          <ins className="no-underline">{content}</ins>
        ) : row.type === "remove" ? (
          <del className="no-underline">{content}</del>
        ) : (
          content
        )}
      </span>
    </div>
  );
}
