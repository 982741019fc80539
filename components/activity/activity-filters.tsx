import { Button } from "@/components/ui/button";

/** Filters as a plain GET form: the URL carries them, so a filtered view is a shareable link. */
export function ActivityFilters({ sandboxOnly, errorsOnly }: { sandboxOnly: boolean; errorsOnly: boolean }) {
  return (
    <form
      method="get"
      action="/activity"
      aria-label="Filters"
      className="mb-4 flex flex-wrap items-center gap-4 text-sm"
    >
      <label className="flex items-center gap-2 text-slate-800">
        <input
          type="checkbox"
          name="sandbox"
          value="1"
          defaultChecked={sandboxOnly}
          className="size-4 rounded border-slate-300 text-indigo-600"
        />
        Sandbox only
      </label>
      <label className="flex items-center gap-2 text-slate-800">
        <input
          type="checkbox"
          name="errors"
          value="1"
          defaultChecked={errorsOnly}
          className="size-4 rounded border-slate-300 text-indigo-600"
        />
        Errors only (status ≥ 400)
      </label>
      <Button type="submit" variant="secondary">
        Apply
      </Button>
    </form>
  );
}
