import type { ReactNode } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import type { serializeConnection } from "@/lib/domain/providers/serialize-connection";
import { Badge } from "@/components/ui/badge";
import { CircuitBadge } from "./circuit-badge";
import { DeleteButton } from "./delete-button";
import { limitWords, type CircuitState } from "./words";

type Action = (previous: FormState, form: FormData) => Promise<FormState>;

/** A workspace connection as the API shows it (never its secrets), with its circuit. */
export type ConnectionView = ReturnType<typeof serializeConnection> & { circuit: CircuitState };

/** The instance's own connection: its kind (DELIVERY_PROVIDER) and its circuit in this workspace. */
export interface DefaultConnectionView {
  kind: ConnectionView["kind"];
  circuit: CircuitState;
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[7rem_minmax(0,1fr)] gap-2 sm:grid-cols-[9rem_minmax(0,1fr)]">
      <dt className="text-slate-500">{term}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </div>
  );
}

function Heading({ name, kind, circuit }: { name: string; kind: string; circuit: CircuitState }) {
  return (
    <p className="flex flex-wrap items-center gap-2">
      <span className="font-mono text-sm font-semibold break-all text-slate-900">{name}</span>
      <Badge tone="info">{kind}</Badge>
      <CircuitBadge state={circuit} />
    </p>
  );
}

function Settings({ settings }: { settings: ConnectionView["settings"] }) {
  const entries = Object.entries(settings).filter(([, value]) => value !== undefined && value !== "");
  if (entries.length === 0) return <span className="text-slate-500">none</span>;
  return (
    <ul className="space-y-0.5">
      {entries.map(([field, value]) => (
        <li key={field} className="break-all">
          <span className="font-mono text-xs text-slate-500">{field}</span>{" "}
          <span className="font-mono text-xs">{Array.isArray(value) ? value.join(", ") : String(value)}</span>
        </li>
      ))}
    </ul>
  );
}

function ConnectionItem({
  connection,
  appUrl,
  deleteAction,
}: {
  connection: ConnectionView;
  appUrl: string;
  deleteAction?: Action;
}) {
  return (
    <li className="py-4 first:pt-0 last:pb-0" data-testid="connection" data-name={connection.name}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 flex-1 space-y-2">
          <Heading name={connection.name} kind={connection.kind} circuit={connection.circuit} />
          <dl className="space-y-1 text-sm">
            <Detail term="Settings">
              <Settings settings={connection.settings} />
            </Detail>
            <Detail term="Secrets">
              {connection.secretsSet.length ? (
                <span data-testid="secrets-set">
                  {connection.secretsSet.map((field) => (
                    <span key={field} className="mr-2 inline-block">
                      <code className="font-mono text-xs">{field}</code> set
                    </span>
                  ))}
                </span>
              ) : (
                <span className="text-slate-500">none set</span>
              )}
            </Detail>
            <Detail term="Limits">{limitWords(connection.ratePerSecond, connection.concurrency)}</Detail>
            {connection.eventsPath ? (
              <Detail term="Events URL">
                <code className="font-mono text-xs break-all" data-testid="events-path">
                  {appUrl}
                  {connection.eventsPath}
                </code>
                <p className="text-xs text-slate-500">
                  Point the provider&apos;s {connection.kind === "ses" ? "SNS subscription" : "webhook"} here.
                </p>
              </Detail>
            ) : null}
          </dl>
        </div>
        {deleteAction ? (
          <DeleteButton id={connection.id} title={`Delete the connection ${connection.name}?`} action={deleteAction}>
            Refused while a routing rule names it. Its secrets and its circuit go with it.
          </DeleteButton>
        ) : null}
      </div>
    </li>
  );
}

/** `default` (the instance's, read-only) first, then the workspace's connections by name. */
export function ConnectionList({
  defaultConnection,
  connections,
  appUrl,
  deleteAction,
}: {
  defaultConnection: DefaultConnectionView;
  connections: ConnectionView[];
  appUrl: string;
  deleteAction?: Action;
}) {
  return (
    <ul className="divide-y divide-slate-100" aria-label="Connections">
      <li className="pb-4" data-testid="connection" data-name="default">
        <Heading name="default" kind={defaultConnection.kind} circuit={defaultConnection.circuit} />
        <p className="mt-1 text-sm text-slate-600">
          The instance&apos;s provider (its env settings): set by the operator, the same for every workspace, and where
          messages go when no rule matches. Read-only here.
        </p>
      </li>
      {connections.map((connection) => (
        <ConnectionItem key={connection.id} connection={connection} appUrl={appUrl} deleteAction={deleteAction} />
      ))}
      {connections.length === 0 ? (
        <li className="pt-4 text-sm text-slate-600">
          No connections of this workspace yet: every message goes through default.
        </li>
      ) : null}
    </ul>
  );
}
