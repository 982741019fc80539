import { Button } from "@/components/ui/button";

const ACTOR_TYPES = [
  ["", "Anyone"],
  ["USER", "A user"],
  ["API_KEY", "An API key"],
  ["SYSTEM", "The system or CLI"],
] as const;

const field = "rounded-md border border-slate-300 px-2 py-1 text-sm";

/**
 * The audit log's filters as a plain GET form named like GET /v1/audit_events' parameters, so a
 * filtered view is a shareable link and the page parses it with the API's own parser.
 */
export function AuditFilters({ values }: { values: Record<string, string | null> }) {
  const value = (name: string) => values[name] ?? "";
  return (
    <form method="get" action="/audit" aria-label="Filters" className="mb-4 flex flex-wrap items-end gap-3 text-sm">
      <label className="flex flex-col gap-1 text-slate-700">
        Actor
        <select name="actorType" defaultValue={value("actorType")} className={field}>
          {ACTOR_TYPES.map(([type, label]) => (
            <option key={type} value={type}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-slate-700">
        Actor id
        <input
          name="actorId"
          defaultValue={value("actorId")}
          placeholder="user_… or key_…"
          className={`${field} font-mono`}
        />
      </label>
      <label className="flex flex-col gap-1 text-slate-700">
        Action
        <input
          name="action"
          defaultValue={value("action")}
          placeholder="api_key.revoke"
          className={`${field} font-mono`}
        />
      </label>
      <label className="flex flex-col gap-1 text-slate-700">
        Target type
        <input
          name="targetType"
          defaultValue={value("targetType")}
          placeholder="domain"
          className={`${field} font-mono`}
        />
      </label>
      <label className="flex flex-col gap-1 text-slate-700">
        Target id
        <input name="targetId" defaultValue={value("targetId")} className={`${field} font-mono`} />
      </label>
      <label className="flex flex-col gap-1 text-slate-700">
        From (UTC)
        <input type="date" name="createdAt.gte" defaultValue={value("createdAt.gte")} className={field} />
      </label>
      <label className="flex flex-col gap-1 text-slate-700">
        Before (UTC)
        <input type="date" name="createdAt.lt" defaultValue={value("createdAt.lt")} className={field} />
      </label>
      <Button type="submit" variant="secondary">
        Apply
      </Button>
    </form>
  );
}
