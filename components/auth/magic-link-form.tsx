"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";

type State = FormState;
type Action = (previous: State, form: FormData) => Promise<State>;

/** "Email me a sign-in link": the answer is the check-your-inbox page, whether the address has an account or not. */
export function MagicLinkForm({ action }: { action: Action }) {
  const [state, submit, pending] = useActionState(action, {});
  return (
    <form action={submit} className="space-y-3">
      <Field label="Email for a sign-in link" htmlFor="link-email" error={state.error}>
        <Input
          id="link-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={state.values?.email}
          aria-invalid={Boolean(state.error)}
        />
      </Field>
      <Button type="submit" variant="secondary" disabled={pending} className="w-full">
        {pending ? "Sending…" : "Email me a sign-in link"}
      </Button>
    </form>
  );
}
