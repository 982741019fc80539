"use client";

import { useActionState, useState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Input, Select } from "@/components/ui/field";

type Action = (previous: FormState, form: FormData) => Promise<FormState>;

/** The settings each kind takes and of those the ones it needs (lib/domain/providers/schemas.ts's KIND_FIELDS). */
export type KindFields = Record<string, { allowed: readonly string[]; required: readonly string[] }>;

const SECRETS = new Set(["password", "apiKey", "webhookSecret", "secretAccessKey"]);

/** Each field's label and an example or what it is for. */
const FIELDS: Record<string, { label: string; hint: string }> = {
  url: { label: "URL", hint: "smtp://host:port (STARTTLS when offered) or smtps://host:port, without credentials." },
  user: { label: "User", hint: "AUTH's user name; none: no AUTH." },
  password: { label: "Password", hint: "AUTH's password. Write-only: never shown again." },
  apiKey: { label: "API key", hint: "A Resend API key with sending access. Write-only." },
  webhookSecret: {
    label: "Webhook signing secret",
    hint: "whsec_… of the webhook that posts to this connection's events URL (shown once it exists). Write-only.",
  },
  baseUrl: { label: "Base URL", hint: "Default https://api.resend.com." },
  region: { label: "Region", hint: "The AWS region, e.g. eu-west-1." },
  accessKeyId: { label: "Access key id", hint: "AKIA…" },
  secretAccessKey: { label: "Secret access key", hint: "Write-only." },
  configurationSet: { label: "Configuration set", hint: "The configuration set that publishes events to SNS." },
  endpoint: { label: "Endpoint", hint: "Default AWS's." },
  snsTopicArns: { label: "SNS topic ARNs", hint: "Comma separated: the topics whose notifications it takes." },
};

const KIND_WORDS: Record<string, string> = {
  smtp: "an SMTP relay",
  resend: "a Resend account",
  ses: "an Amazon SES account",
  simulator: "the simulator (answers like a provider, sends nothing)",
  local: "the local inbox (sends nothing out)",
};

/** The field a refusal names, without its index: `snsTopicArns[0]` → snsTopicArns. */
const fieldOf = (param?: string) => param?.split(/[.[]/)[0];

function KindSettings({
  kind,
  fields,
  values,
  error,
}: {
  kind: string;
  fields: KindFields[string];
  values?: Record<string, string>;
  error: { field?: string; message: string } | null;
}) {
  if (fields.allowed.length === 0)
    return <p className="text-sm text-slate-600">A {kind} connection has no settings.</p>;
  return (
    <fieldset className="space-y-3">
      <legend className="mb-2 text-sm font-medium text-slate-800">Settings of {KIND_WORDS[kind] ?? kind}</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        {fields.allowed.map((field) => {
          const id = `new-connection-${field}`;
          const message = error?.field === field ? error.message : null;
          const required = fields.required.includes(field);
          return (
            <Field
              key={`${kind}-${field}`}
              label={`${FIELDS[field]?.label ?? field}${required ? "" : " (optional)"}`}
              htmlFor={id}
              hint={FIELDS[field]?.hint}
              error={message}
            >
              <Input
                id={id}
                name={field}
                type={SECRETS.has(field) ? "password" : "text"}
                autoComplete={SECRETS.has(field) ? "new-password" : "off"}
                required={required}
                spellCheck={false}
                defaultValue={SECRETS.has(field) ? undefined : values?.[field]}
                aria-invalid={Boolean(message)}
                aria-describedby={message ? `${id}-error` : undefined}
              />
            </Field>
          );
        })}
      </div>
    </fieldset>
  );
}

function Limits({
  values,
  error,
}: {
  values?: Record<string, string>;
  error: { field?: string; message: string } | null;
}) {
  const limits = [
    { field: "ratePerSecond", label: "Messages a second (optional)", hint: "Across every process; empty: no limit." },
    { field: "concurrency", label: "Hand-offs at once (optional)", hint: "Across every process; empty: no limit." },
  ];
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {limits.map(({ field, label, hint }) => {
        const message = error?.field === field ? error.message : null;
        return (
          <Field key={field} label={label} htmlFor={`new-connection-${field}`} hint={hint} error={message}>
            <Input
              id={`new-connection-${field}`}
              name={field}
              inputMode="numeric"
              defaultValue={values?.[field]}
              aria-invalid={Boolean(message)}
            />
          </Field>
        );
      })}
    </div>
  );
}

/** Name, kind, then the fields of the chosen kind; secrets are password inputs and never echoed back. */
export function ConnectionForm({ kinds, action }: { kinds: KindFields; action: Action }) {
  const [state, submit, pending] = useActionState(action, {});
  const values = state.ok ? undefined : state.values;
  const [kind, setKind] = useState(values?.kind || "smtp");
  const field = fieldOf(state.field);
  const error = state.error ? { field, message: state.error } : null;
  const shown = new Set(["name", "kind", "ratePerSecond", "concurrency", ...(kinds[kind]?.allowed ?? [])]);
  const nameError = field === "name" ? state.error : null;
  return (
    <form action={submit} className="space-y-4" data-testid="connection-form">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Name"
          htmlFor="new-connection-name"
          hint="What rules name it by, e.g. eu-relay."
          error={nameError}
        >
          <Input
            id="new-connection-name"
            name="name"
            required
            maxLength={40}
            autoCapitalize="none"
            spellCheck={false}
            placeholder="eu-relay"
            defaultValue={values?.name}
            aria-invalid={Boolean(nameError)}
            aria-describedby={nameError ? "new-connection-name-error" : undefined}
          />
        </Field>
        <Field label="Kind" htmlFor="new-connection-kind" error={field === "kind" ? state.error : null}>
          <Select id="new-connection-kind" name="kind" value={kind} onChange={(event) => setKind(event.target.value)}>
            {Object.keys(kinds).map((option) => (
              <option key={option} value={option}>
                {option}: {KIND_WORDS[option] ?? option}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <KindSettings kind={kind} fields={kinds[kind] ?? { allowed: [], required: [] }} values={values} error={error} />
      <Limits values={values} error={error} />
      {state.error && !(field && shown.has(field)) ? (
        <FormMessage tone="error">{field ? `${field}: ${state.error}` : state.error}</FormMessage>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Adding…" : "Add connection"}
        </Button>
        {state.ok && state.message ? <FormMessage tone="success">{state.message}</FormMessage> : null}
      </div>
    </form>
  );
}
