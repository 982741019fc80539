export function Logo() {
  return (
    <span className="flex items-center gap-2 font-semibold tracking-tight text-slate-900">
      <span aria-hidden className="grid h-7 w-7 place-items-center rounded-md bg-indigo-600 text-sm text-white">
        P
      </span>
      Postwerk
    </span>
  );
}
