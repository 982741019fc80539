import type { FormState } from "@/app/_lib/action-state.shared";
import type { serializeRule } from "@/lib/domain/providers/serialize-rule";
import { Badge } from "@/components/ui/badge";
import { DeleteButton } from "./delete-button";
import { chainWords, matchWords } from "./words";

type Action = (previous: FormState, form: FormData) => Promise<FormState>;

export type RuleView = ReturnType<typeof serializeRule>;

/** The workspace's rules in the order they are tried; the first enabled one that matches picks the connections. */
export function RuleList({ rules, deleteAction }: { rules: RuleView[]; deleteAction?: Action }) {
  if (rules.length === 0)
    return (
      <p className="text-sm text-slate-600" data-testid="no-rules">
        No rules yet: every message goes through default.
      </p>
    );
  return (
    <ol className="divide-y divide-slate-100" aria-label="Routing rules">
      {rules.map((rule) => (
        <li key={rule.id} className="py-4 first:pt-0 last:pb-0" data-testid="routing-rule" data-name={rule.name ?? ""}>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
            <div className="min-w-0 flex-1 space-y-1">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-mono text-xs text-slate-500" title="Position: rules are tried in ascending order">
                  #{rule.position}
                </span>
                <span className="font-semibold break-words text-slate-900">{rule.name ?? "Unnamed rule"}</span>
                <Badge tone={rule.enabled ? "success" : "neutral"}>{rule.enabled ? "Enabled" : "Disabled"}</Badge>
              </p>
              <p className="text-sm break-words text-slate-700">{matchWords(rule.match)}</p>
              <p className="text-sm break-words text-slate-700">
                <span className="text-slate-500">Through </span>
                <span className="font-mono text-xs" data-testid="rule-chain">
                  {chainWords(rule.connections)}
                </span>
                {rule.connections.length > 1 ? (
                  <span className="text-slate-500"> (the primary, then the fallbacks in order)</span>
                ) : null}
              </p>
            </div>
            {deleteAction ? (
              <DeleteButton id={rule.id} title={`Delete the rule ${rule.name ?? rule.id}?`} action={deleteAction}>
                Messages it matched fall to the next rule, or to the default connection.
              </DeleteButton>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
