"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import type { dryRunRoute } from "@/lib/delivery/routing/dry-run";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Input } from "@/components/ui/field";
import { CircuitBadge } from "./circuit-badge";
import { FAMILY_SHORT } from "./words";

type Result = Awaited<ReturnType<typeof dryRunRoute>>;
type State = FormState<{ result: Result; values: Record<string, string> }>;
type Action = (previous: State, form: FormData) => Promise<State>;

const FIELDS = [
  { name: "from", label: "From", placeholder: "Acme <hello@example.com>", hint: "The sender." },
  { name: "to", label: "To", placeholder: "someone@outlook.com", hint: "One recipient, or several comma separated." },
  { name: "tags", label: "Tags (optional)", placeholder: "stream:bulk", hint: "Comma separated, e.g. stream:bulk." },
] as const;

function Outcome({ result }: { result: Result }) {
  return (
    <div
      className="space-y-3 rounded-md bg-slate-50 p-3 text-sm ring-1 ring-slate-200 ring-inset"
      data-testid="dry-run-result"
    >
      <p className="font-medium text-slate-900" data-testid="dry-run-summary">
        {result.summary}
      </p>
      <p className="text-slate-700" hidden={result.simulator}>
        Rule:{" "}
        {result.rule ? (
          <span className="font-semibold">{result.rule.name ?? result.rule.id}</span>
        ) : (
          <span>none matches, so the default connection</span>
        )}
      </p>
      {result.connections.length ? (
        <ol className="space-y-1" aria-label="Connections tried">
          {result.connections.map((hop, index) => (
            <li
              key={`${hop.id}-${index}`}
              className="flex flex-wrap items-center gap-2"
              data-testid="dry-run-connection"
            >
              <span className="text-slate-500">{index + 1}.</span>
              <span className="font-mono text-xs font-semibold break-all">{hop.name}</span>
              <Badge tone="info">{hop.kind}</Badge>
              <Badge>{hop.role}</Badge>
              <CircuitBadge state={hop.circuit} />
            </li>
          ))}
        </ol>
      ) : null}
      <p className="text-xs text-slate-600">
        Read as: stream <code className="font-mono">{result.facts.stream}</code>
        {result.facts.senderDomain ? (
          <>
            ; sender domain <code className="font-mono">{result.facts.senderDomain}</code>
          </>
        ) : null}
        {result.facts.recipientDomains.length ? "; recipients at " : null}
        {result.facts.recipientDomains.map(({ domain, mailboxFamily }, index) => (
          <span key={domain}>
            {index ? ", " : null}
            <code className="font-mono">{domain}</code> (
            {mailboxFamily ? FAMILY_SHORT[mailboxFamily] : "no mailbox family"})
          </span>
        ))}
        .
      </p>
    </div>
  );
}

/** Which rule and connections a message with these fields would take now, with each connection's circuit. */
export function DryRunForm({ action }: { action: Action }) {
  const [state, submit, pending] = useActionState(action, {});
  const values = state.values;
  const field = state.field?.split(/[.[]/)[0];
  const known = FIELDS.some((entry) => entry.name === field);
  return (
    <div className="space-y-4">
      <form action={submit} className="space-y-4" data-testid="dry-run-form">
        <div className="grid gap-4 sm:grid-cols-3">
          {FIELDS.map((entry) => {
            const message = state.error && field === entry.name ? state.error : null;
            return (
              <Field
                key={entry.name}
                label={entry.label}
                htmlFor={`dry-run-${entry.name}`}
                hint={entry.hint}
                error={message}
              >
                <Input
                  id={`dry-run-${entry.name}`}
                  name={entry.name}
                  required={entry.name !== "tags"}
                  spellCheck={false}
                  autoCapitalize="none"
                  placeholder={entry.placeholder}
                  defaultValue={values?.[entry.name]}
                  aria-invalid={Boolean(message)}
                />
              </Field>
            );
          })}
        </div>
        {state.error && !known ? <FormMessage tone="error">{state.error}</FormMessage> : null}
        <Button type="submit" variant="secondary" disabled={pending}>
          {pending ? "Routing…" : "Dry run"}
        </Button>
      </form>
      {state.ok ? <Outcome result={state.result} /> : null}
    </div>
  );
}
