"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Input } from "@/components/ui/field";
import { WEBHOOK_EVENT_TYPES } from "@/lib/records/timeline/webhook-event-types.shared";
import { SecretOnce } from "./secret-once";

type Created = { id: string; url: string; secret: string };
type CreateState = FormState<{ created: Created }>;
type SaveState = FormState<{ message: string }>;

export interface EndpointValues {
  id?: string;
  url: string;
  description: string;
  /** null: every type, including types added later. */
  eventTypes: string[] | null;
}

/** Create: the answer shows the signing secret once (it exists only in this component's state). */
export function CreateEndpointForm({
  action,
}: {
  action: (previous: CreateState, form: FormData) => Promise<CreateState>;
}) {
  const [state, submit, pending] = useActionState(action, {});
  const values = state.ok ? undefined : state.values;
  return (
    <div className="space-y-4">
      <form action={submit} className="space-y-4">
        <EndpointFields
          prefix="new-endpoint"
          values={{ url: values?.url ?? "", description: values?.description ?? "", eventTypes: null }}
          error={state.ok ? null : state}
        />
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create endpoint"}
        </Button>
      </form>
      {state.ok ? (
        <SecretOnce
          title={`Endpoint created: copy its signing secret now`}
          secret={state.created.secret}
          testId="new-endpoint-secret"
        >
          Receivers verify every delivery with it (docs/api.md#verifying-a-webhook).{" "}
          <a className="font-medium underline" href={`/webhooks/${state.created.id}`}>
            Open the endpoint
          </a>
        </SecretOnce>
      ) : null}
    </div>
  );
}

/** Edit URL, description and event types. */
export function EditEndpointForm({
  action,
  endpoint,
}: {
  action: (previous: SaveState, form: FormData) => Promise<SaveState>;
  endpoint: EndpointValues;
}) {
  const [state, submit, pending] = useActionState(action, {});
  return (
    <form action={submit} className="space-y-4">
      <input type="hidden" name="id" value={endpoint.id} />
      <EndpointFields prefix="edit-endpoint" values={endpoint} error={state.ok ? null : state} />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save"}
        </Button>
        {state.ok ? <FormMessage tone="success">{state.message}</FormMessage> : null}
      </div>
    </form>
  );
}

function EndpointFields({
  prefix,
  values,
  error,
}: {
  prefix: string;
  values: EndpointValues;
  error: { error?: string; field?: string } | null;
}) {
  const urlError = error?.field === "url" ? error.error : null;
  const other = error?.error && error.field !== "url" ? `${error.field ? `${error.field}: ` : ""}${error.error}` : null;
  const checked = new Set(values.eventTypes ?? []);
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="URL"
          htmlFor={`${prefix}-url`}
          hint="https://…; a receiver on your machine (http://localhost…) needs the operator's WEBHOOKS_ALLOW_LOCAL=true."
          error={urlError}
        >
          <Input
            id={`${prefix}-url`}
            name="url"
            type="text"
            required
            maxLength={2048}
            defaultValue={values.url}
            placeholder="https://example.com/webhooks/postwerk"
            aria-invalid={Boolean(urlError)}
          />
        </Field>
        <Field label="Description" htmlFor={`${prefix}-description`} hint="Optional: what receives it.">
          <Input id={`${prefix}-description`} name="description" maxLength={500} defaultValue={values.description} />
        </Field>
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">
          Event types (none checked = every type, including types added later)
        </legend>
        <div className="grid grid-cols-[repeat(auto-fill,minmax(13rem,1fr))] gap-1">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                name="eventTypes"
                value={type}
                defaultChecked={checked.has(type)}
                data-testid={`${prefix}-type-${type}`}
              />
              <code className="font-mono text-xs">{type}</code>
            </label>
          ))}
        </div>
      </fieldset>
      {other ? <FormMessage tone="error">{other}</FormMessage> : null}
    </>
  );
}
