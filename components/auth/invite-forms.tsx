"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Input } from "@/components/ui/field";

type State = FormState;
type Action = (previous: State, form: FormData) => Promise<State>;

/** New address: choose a name and password; the email is the invited one and cannot be changed. */
export function NewAccountForm({ token, email, action }: { token: string; email: string; action: Action }) {
  const [state, submit, pending] = useActionState(action, {});
  const passwordError = state.field === "password" ? state.error : null;
  return (
    <form action={submit} className="space-y-4">
      <input type="hidden" name="token" value={token} />
      {state.error && !passwordError ? <FormMessage tone="error">{state.error}</FormMessage> : null}
      <Field label="Email" htmlFor="invite-email">
        <Input id="invite-email" value={email} readOnly aria-readonly="true" className="bg-slate-50" />
      </Field>
      <Field label="Your name" htmlFor="name">
        <Input id="name" name="name" autoComplete="name" defaultValue={state.values?.name} />
      </Field>
      <Field label="Password" htmlFor="password" hint="At least 8 characters." error={passwordError}>
        <Input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={8}
          required
          aria-invalid={Boolean(passwordError)}
        />
      </Field>
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? "Joining…" : "Create account and join"}
      </Button>
    </form>
  );
}

/** Existing account, signed out: sign in here and come back to accept. */
export function SignInToAcceptForm({ token, email, action }: { token: string; email: string; action: Action }) {
  const [state, submit, pending] = useActionState(action, {});
  return (
    <form action={submit} className="space-y-4">
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="email" value={email} />
      {state.error ? <FormMessage tone="error">{state.error}</FormMessage> : null}
      <Field label={`Password for ${email}`} htmlFor="password">
        <Input id="password" name="password" type="password" autoComplete="current-password" required />
      </Field>
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}

/** Signed in with the invited address: one button. */
export function AcceptForm({ token, workspaceName, action }: { token: string; workspaceName: string; action: Action }) {
  const [state, submit, pending] = useActionState(action, {});
  return (
    <form action={submit} className="space-y-4">
      <input type="hidden" name="token" value={token} />
      {state.error ? <FormMessage tone="error">{state.error}</FormMessage> : null}
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? "Joining…" : `Join ${workspaceName}`}
      </Button>
    </form>
  );
}
