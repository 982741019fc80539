"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Input } from "@/components/ui/field";

/** The contact's locale (docs/templates.md#where-the-locale-comes-from); empty clears it. */
export function ContactLocaleForm({
  action,
  contactId,
  locale,
}: {
  action: (previous: FormState, form: FormData) => Promise<FormState>;
  contactId: string;
  locale: string | null;
}) {
  const [state, submit, pending] = useActionState(action, {});
  const error = state.error ? state.error : null;
  return (
    <form action={submit} className="space-y-2" data-testid="contact-locale-form">
      <input type="hidden" name="id" value={contactId} />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="sm:w-60">
          <Field label="Locale" htmlFor="contact-locale" hint="A tag such as fr or pt-BR; empty: none." error={error}>
            <Input
              id="contact-locale"
              name="locale"
              defaultValue={state.values?.locale ?? locale ?? ""}
              placeholder="None"
              className="font-mono"
              spellCheck={false}
              autoCapitalize="none"
              aria-invalid={Boolean(error)}
            />
          </Field>
        </div>
        <Button type="submit" variant="secondary" disabled={pending} className="sm:mb-5">
          {pending ? "Saving…" : "Save locale"}
        </Button>
      </div>
      {state.ok && state.message ? <FormMessage tone="success">{state.message}</FormMessage> : null}
    </form>
  );
}
