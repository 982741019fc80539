"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Input } from "@/components/ui/field";
import type { SettingsAction } from "./form-state.shared";

export function GeneralForm({ name, action }: { name: string; action: SettingsAction }) {
  const [state, submit, pending] = useActionState(action, {});
  const nameError = state.field === "name" ? state.error : null;
  return (
    <form action={submit} className="space-y-3" aria-label="General settings">
      <Field label="Workspace name" htmlFor="workspace-name" error={nameError}>
        <Input
          id="workspace-name"
          name="name"
          required
          maxLength={100}
          defaultValue={state.values?.name ?? name}
          aria-invalid={Boolean(nameError)}
        />
      </Field>
      {state.error && !nameError ? <FormMessage tone="error">{state.error}</FormMessage> : null}
      {state.ok && state.message ? <FormMessage tone="success">{state.message}</FormMessage> : null}
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Save name"}
      </Button>
    </form>
  );
}
