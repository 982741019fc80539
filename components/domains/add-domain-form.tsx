"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Input } from "@/components/ui/field";

type State = FormState;

/** The domain to send from; on success the action opens the domain's page with its DNS records. */
export function AddDomainForm({ action }: { action: (previous: State, form: FormData) => Promise<State> }) {
  const [state, submit, pending] = useActionState(action, {});
  const nameError = state.error && (state.field === "name" || !state.field) ? state.error : null;
  return (
    <form action={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
      {state.error && state.field && state.field !== "name" ? (
        <FormMessage tone="error">{state.error}</FormMessage>
      ) : null}
      <div className="sm:w-96">
        <Field
          label="Domain"
          htmlFor="domain-name"
          hint="The part after @ in your From addresses, e.g. mail.example.com."
          error={nameError}
        >
          <Input
            id="domain-name"
            name="name"
            required
            placeholder="mail.example.com"
            autoCapitalize="none"
            spellCheck={false}
            defaultValue={state.values?.name}
            aria-invalid={Boolean(nameError)}
            aria-describedby={nameError ? "domain-name-error" : undefined}
          />
        </Field>
      </div>
      <Button type="submit" disabled={pending} className="sm:mb-5">
        {pending ? "Adding…" : "Add domain"}
      </Button>
    </form>
  );
}
