"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { CodeBlock } from "@/components/ui/code-block";
import { CopyButton } from "@/components/ui/copy-button";
import { Field, FormMessage, Input } from "@/components/ui/field";
import { API_SCOPES, SCOPE_DESCRIPTIONS } from "@/lib/domain/api-keys/scopes.shared";

type Created = { username: string; password: string; name: string; scopes: string[] };
type State = FormState<{ created: Created }>;

/**
 * Names a new key; the answer shows its secret once. The secret exists only in this component's
 * state: a reload or another visit never shows it again (only its hash is stored).
 */
export function CreateApiKeyForm({
  action,
  appUrl,
}: {
  action: (previous: State, form: FormData) => Promise<State>;
  appUrl: string;
}) {
  const [state, submit, pending] = useActionState(action, {});
  const nameError = state.field === "name" ? state.error : null;
  // Any other refusal names a restriction field (`allowedIps[1]`, `expiresAt`, `scopes`): shown under the restrictions.
  const otherError =
    !state.ok && state.error && state.field !== "name"
      ? `${state.field ? `${state.field}: ` : ""}${state.error}`
      : null;
  const values = state.ok ? undefined : state.values;
  return (
    <div className="space-y-4">
      <form action={submit} className="space-y-4">
        <div className="sm:w-80">
          <Field
            label="Key name"
            htmlFor="key-name"
            hint="Where it is used, e.g. “Production web app”."
            error={nameError}
          >
            <Input
              id="key-name"
              name="name"
              required
              maxLength={100}
              defaultValue={values?.name}
              aria-invalid={Boolean(nameError)}
              aria-describedby={nameError ? "key-name-error" : undefined}
            />
          </Field>
        </div>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700">
            Scopes (fixed for the key&apos;s life; none checked = full)
          </legend>
          <div className="grid gap-1 sm:grid-cols-2">
            {API_SCOPES.map((scope) => (
              <label key={scope} className="flex items-start gap-2 text-sm text-slate-700">
                <input type="checkbox" name="scopes" value={scope} className="mt-1" data-testid={`scope-${scope}`} />
                <span>
                  <code className="font-mono text-xs">{scope}</code>{" "}
                  <span className="text-slate-500">{SCOPE_DESCRIPTIONS[scope]}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <details className="space-y-3 rounded-md border border-slate-200 p-3">
          <summary className="cursor-pointer text-sm font-medium text-slate-700">Restrictions (optional)</summary>
          <Field
            label="Allowed senders"
            htmlFor="key-senders"
            hint="Addresses or domains, comma or line separated; empty = any verified sender."
          >
            <textarea
              id="key-senders"
              name="allowedSenders"
              rows={2}
              defaultValue={values?.allowedSenders}
              className="w-full rounded-md border border-slate-300 p-2 font-mono text-xs"
            />
          </Field>
          <Field
            label="IP allow list"
            htmlFor="key-ips"
            hint="CIDR ranges (203.0.113.0/24, 2001:db8::/32); empty = any address."
          >
            <textarea
              id="key-ips"
              name="allowedIps"
              rows={2}
              defaultValue={values?.allowedIps}
              className="w-full rounded-md border border-slate-300 p-2 font-mono text-xs"
            />
          </Field>
          <Field label="Expires on" htmlFor="key-expires" hint="The key is refused after the end of this day (UTC).">
            <Input id="key-expires" name="expiresAt" type="date" defaultValue={values?.expiresAt} />
          </Field>
        </details>
        {otherError ? <FormMessage tone="error">{otherError}</FormMessage> : null}
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create key"}
        </Button>
      </form>
      {state.ok ? <NewKeySecret created={state.created} appUrl={appUrl} /> : null}
    </div>
  );
}

function NewKeySecret({ created, appUrl }: { created: Created; appUrl: string }) {
  const curl = [
    `curl ${appUrl}/api/v1/sandbox/email_messages \\`,
    `  -u '${created.username}:${created.password}' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '{"from": "you@your-verified-domain.com", "to": "ada@example.org", "subject": "Hello", "bodyHtml": "<p>It works.</p>"}'`,
  ].join("\n");
  return (
    <section
      aria-labelledby="new-key-title"
      className="space-y-3 rounded-lg border border-emerald-200 bg-emerald-50 p-4"
      data-testid="new-key"
    >
      <h2 id="new-key-title" className="text-sm font-semibold text-emerald-900">
        Key “{created.name}” created: copy the password now
      </h2>
      <p className="text-sm text-emerald-900">
        Scopes:{" "}
        <code className="font-mono text-xs" data-testid="new-key-scopes">
          {created.scopes.join(", ")}
        </code>
      </p>
      <FormMessage tone="success">
        This is the only time the password is shown. Store it in your secret manager; if it is lost, create a new key
        and revoke this one.
      </FormMessage>
      <dl className="grid gap-2 text-sm sm:grid-cols-[8rem_minmax(0,1fr)] sm:items-center">
        <dt className="font-medium text-slate-700">Username</dt>
        <dd className="flex min-w-0 items-center gap-2">
          <code className="min-w-0 font-mono break-all" data-testid="new-key-username">
            {created.username}
          </code>
          <CopyButton value={created.username} label="Copy username" />
        </dd>
        <dt className="font-medium text-slate-700">Password</dt>
        <dd className="flex min-w-0 items-center gap-2">
          <code className="min-w-0 font-mono break-all" data-testid="new-key-password">
            {created.password}
          </code>
          <CopyButton value={created.password} label="Copy password" />
        </dd>
      </dl>
      <div className="space-y-2">
        <div className="flex items-center justify-between gap-2">
          <p className="text-sm font-medium text-slate-700">Try it (sandbox: nothing is delivered)</p>
          <CopyButton value={curl} label="Copy curl example" />
        </div>
        <CodeBlock label="curl example">{curl}</CodeBlock>
      </div>
    </section>
  );
}
