"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { CodeBlock } from "@/components/ui/code-block";
import { CopyButton } from "@/components/ui/copy-button";
import { Field, FormMessage, Input } from "@/components/ui/field";

type Created = { username: string; password: string; name: string };
type State = FormState<{ created: Created }>;

/**
 * Names a new key; the answer shows its secret once. The secret exists only in this component's
 * state: a reload or another visit never shows it again (only its hash is stored).
 */
export function CreateApiKeyForm({ action, appUrl }: { action: (previous: State, form: FormData) => Promise<State>; appUrl: string }) {
  const [state, submit, pending] = useActionState(action, {});
  const nameError = state.field === "name" ? state.error : null;
  return (
    <div className="space-y-4">
      <form action={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="sm:w-80">
          <Field label="Key name" htmlFor="key-name" hint="Where it is used, e.g. “Production web app”." error={nameError}>
            <Input id="key-name" name="name" required maxLength={100} defaultValue={state.ok ? undefined : state.values?.name} aria-invalid={Boolean(nameError)} aria-describedby={nameError ? "key-name-error" : undefined} />
          </Field>
        </div>
        <Button type="submit" disabled={pending} className="sm:mb-5">
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
    <section aria-labelledby="new-key-title" className="space-y-3 rounded-lg border border-emerald-200 bg-emerald-50 p-4" data-testid="new-key">
      <h2 id="new-key-title" className="text-sm font-semibold text-emerald-900">
        Key “{created.name}” created: copy the password now
      </h2>
      <FormMessage tone="success">This is the only time the password is shown. Store it in your secret manager; if it is lost, create a new key and revoke this one.</FormMessage>
      <dl className="grid gap-2 text-sm sm:grid-cols-[8rem_minmax(0,1fr)] sm:items-center">
        <dt className="font-medium text-slate-700">Username</dt>
        <dd className="flex min-w-0 items-center gap-2">
          <code className="min-w-0 font-mono break-all" data-testid="new-key-username">{created.username}</code>
          <CopyButton value={created.username} label="Copy username" />
        </dd>
        <dt className="font-medium text-slate-700">Password</dt>
        <dd className="flex min-w-0 items-center gap-2">
          <code className="min-w-0 font-mono break-all" data-testid="new-key-password">{created.password}</code>
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
