"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Input } from "@/components/ui/field";

type State = FormState;
type Action = (previous: State, form: FormData) => Promise<State>;

export function SetupForm({ action }: { action: Action }) {
  const [state, submit, pending] = useActionState(action, {});
  const errorFor = (param: string) => (state.field === param ? state.error : null);
  return (
    <form action={submit} className="space-y-4">
      {state.error && !state.field ? <FormMessage tone="error">{state.error}</FormMessage> : null}
      <Field label="Your name" htmlFor="name" error={errorFor("name")}>
        <Input id="name" name="name" autoComplete="name" defaultValue={state.values?.name} />
      </Field>
      <Field label="Email" htmlFor="email" error={errorFor("email")}>
        <Input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={state.values?.email}
          aria-invalid={Boolean(errorFor("email"))}
        />
      </Field>
      <Field label="Password" htmlFor="password" hint="At least 8 characters." error={errorFor("password")}>
        <Input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={8}
          required
          aria-invalid={Boolean(errorFor("password"))}
        />
      </Field>
      <Field label="Workspace name" htmlFor="workspaceName" error={errorFor("workspaceName")}>
        <Input
          id="workspaceName"
          name="workspaceName"
          required
          defaultValue={state.values?.workspaceName ?? "My workspace"}
          aria-invalid={Boolean(errorFor("workspaceName"))}
        />
      </Field>
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? "Creating…" : "Create account"}
      </Button>
    </form>
  );
}
