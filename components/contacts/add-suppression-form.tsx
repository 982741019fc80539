"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Input } from "@/components/ui/field";

type State = FormState;

/** Suppress an address by hand: later live sends to it are skipped and recorded as suppressed. */
export function AddSuppressionForm({
  action,
  defaultEmail,
}: {
  action: (previous: State, form: FormData) => Promise<State>;
  defaultEmail?: string;
}) {
  const [state, submit, pending] = useActionState(action, {});
  const emailError = state.error ? state.error : null;
  return (
    <form action={submit} className="space-y-2">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="sm:w-96">
          <Field label="Address to suppress" htmlFor="suppress-email" error={emailError}>
            <Input
              id="suppress-email"
              name="email"
              type="email"
              required
              defaultValue={state.values?.email ?? defaultEmail}
              aria-invalid={Boolean(emailError)}
              aria-describedby={emailError ? "suppress-email-error" : undefined}
            />
          </Field>
        </div>
        <Button type="submit" variant="secondary" disabled={pending} className={emailError ? "sm:mb-5" : ""}>
          {pending ? "Adding…" : "Add to suppression list"}
        </Button>
      </div>
      {state.ok && state.message ? <FormMessage tone="success">{state.message}</FormMessage> : null}
    </form>
  );
}
