import type { FormState } from "@/app/_lib/action-state.shared";
import { Badge } from "@/components/ui/badge";
import { DeleteRouteButton } from "./domain-actions";
import { RouteForm, type RouteFormValues } from "./route-form";

type Action = (previous: FormState, form: FormData) => Promise<FormState>;

/** A route as stored (lib/domain/inbound's InboundRoute, structurally). */
export interface RouteView {
  id: string;
  name: string | null;
  pattern: string;
  kind: string;
  actions: Array<{ type: string; to?: string; workflowId?: string; code?: number; message?: string }>;
  dmarcFailAction: string;
  spamThreshold: number | null;
  spamAction: string;
  enabled: boolean;
}

const KINDS: Record<string, string> = { exact: "exact address", plus: "address+anything", catch_all: "any address" };

/** What the route does, in words: "store, webhook, forward to desk@…". */
export function actionWords(route: RouteView): string {
  const words = route.actions.map((action) => {
    if (action.type === "forward") return `forward to ${action.to}`;
    if (action.type === "workflow") return `start workflow ${action.workflowId}`;
    if (action.type === "reject") return `refuse with ${action.code} ${action.message}`;
    if (action.type === "dmarc") return "store DMARC reports";
    return "email.received webhook";
  });
  return route.actions.some((action) => action.type === "reject") ? words.join(", ") : ["store", ...words].join(", ");
}

function formValuesOf(route: RouteView): RouteFormValues {
  const of = (type: string) => route.actions.find((action) => action.type === type);
  return {
    id: route.id,
    name: route.name ?? "",
    pattern: route.pattern,
    webhook: Boolean(of("webhook")),
    forwardTo: of("forward")?.to ?? "",
    workflowId: of("workflow")?.workflowId ?? "",
    dmarcReports: Boolean(of("dmarc")),
    rejectCode: of("reject")?.code?.toString() ?? "",
    rejectMessage: of("reject")?.message ?? "",
    dmarcFailAction: route.dmarcFailAction,
    spamThreshold: route.spamThreshold === null ? "" : String(route.spamThreshold),
    spamAction: route.spamAction,
    enabled: route.enabled,
  };
}

/** The domain's routes; admins edit each one in place and delete it (asked first). */
export function RouteList({
  routes,
  domainId,
  domainName,
  workflows,
  saveAction,
  deleteAction,
}: {
  routes: RouteView[];
  domainId: string;
  domainName: string;
  workflows: Array<{ id: string; name: string }>;
  saveAction?: Action;
  deleteAction?: Action;
}) {
  if (routes.length === 0)
    return <p className="text-sm text-slate-600">No routes yet: mail to this domain is refused until one matches.</p>;
  return (
    <ul className="divide-y divide-slate-100">
      {routes.map((route) => (
        <li
          key={route.id}
          className="py-3 first:pt-0 last:pb-0"
          data-testid="inbound-route"
          data-pattern={route.pattern}
        >
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-mono text-sm break-all text-slate-900">{route.pattern}</span>
            <Badge>{KINDS[route.kind] ?? route.kind}</Badge>
            {route.enabled ? null : <Badge tone="warning">disabled</Badge>}
            {route.name ? <span className="text-sm text-slate-600">{route.name}</span> : null}
          </div>
          <p className="mt-1 text-sm text-slate-700">{actionWords(route)}</p>
          <p className="mt-0.5 text-xs text-slate-500">
            DMARC failure: {route.dmarcFailAction}
            {route.spamThreshold === null ? "" : `; spam above ${route.spamThreshold}: ${route.spamAction}`}
          </p>
          {saveAction && deleteAction ? (
            <div className="mt-2 space-y-2">
              <details>
                <summary className="cursor-pointer text-sm font-medium text-indigo-700">Edit</summary>
                <div className="mt-3">
                  <RouteForm
                    action={saveAction}
                    domainId={domainId}
                    domainName={domainName}
                    workflows={workflows}
                    route={formValuesOf(route)}
                  />
                </div>
              </details>
              <DeleteRouteButton routeId={route.id} pattern={route.pattern} action={deleteAction} />
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
