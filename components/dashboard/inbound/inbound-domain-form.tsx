"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Input } from "@/components/ui/field";

type Action = (previous: FormState, form: FormData) => Promise<FormState>;

/** The domain to receive mail for; on success the action opens its page with the MX record to publish. */
export function InboundDomainForm({ action }: { action: Action }) {
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
          htmlFor="inbound-domain-name"
          hint="A domain or subdomain whose mail comes here, e.g. in.example.com."
          error={nameError}
        >
          <Input
            id="inbound-domain-name"
            name="name"
            required
            placeholder="in.example.com"
            autoCapitalize="none"
            spellCheck={false}
            defaultValue={state.values?.name}
            aria-invalid={Boolean(nameError)}
            aria-describedby={nameError ? "inbound-domain-name-error" : undefined}
          />
        </Field>
      </div>
      <Button type="submit" disabled={pending} className="sm:mb-5">
        {pending ? "Adding…" : "Add inbound domain"}
      </Button>
    </form>
  );
}
