/** Variable paths as code chips; "none" when there are none. */
export function VariableList({ paths, label }: { paths: string[]; label: string }) {
  if (paths.length === 0) return <span className="text-xs text-slate-400">none</span>;
  return (
    <ul aria-label={label} className="inline-flex flex-wrap gap-1 align-middle">
      {paths.map((path) => (
        <li key={path}>
          <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800">{path}</code>
        </li>
      ))}
    </ul>
  );
}
