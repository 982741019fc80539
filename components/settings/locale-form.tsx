"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Input } from "@/components/ui/field";
import type { SettingsAction } from "./form-state.shared";

/** The workspace's default locale (docs/templates.md#where-the-locale-comes-from); empty clears it. */
export function DefaultLocaleForm({ defaultLocale, action }: { defaultLocale: string | null; action: SettingsAction }) {
  const [state, submit, pending] = useActionState(action, {});
  const error = state.field === "defaultLocale" ? state.error : null;
  return (
    <form action={submit} className="space-y-3" aria-label="Language settings">
      <div className="sm:w-60">
        <Field
          label="Default locale"
          htmlFor="workspace-default-locale"
          hint="A tag such as fr or pt-BR; empty: each template's own default."
          error={error}
        >
          <Input
            id="workspace-default-locale"
            name="defaultLocale"
            maxLength={100}
            defaultValue={state.values?.defaultLocale ?? defaultLocale ?? ""}
            placeholder="None"
            className="font-mono"
            spellCheck={false}
            autoCapitalize="none"
            aria-invalid={Boolean(error)}
          />
        </Field>
      </div>
      {state.error && !error ? <FormMessage tone="error">{state.error}</FormMessage> : null}
      {state.ok && state.message ? <FormMessage tone="success">{state.message}</FormMessage> : null}
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Save locale"}
      </Button>
    </form>
  );
}
