"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Input } from "@/components/ui/field";

type State = FormState;

/**
 * Create (no group yet) or edit an unsubscribe group. The key is what code sends with (groupKey),
 * so once the group is in use it is shown read-only.
 */
export function GroupForm({
  action,
  group,
  keyLocked = false,
}: {
  action: (previous: State, form: FormData) => Promise<State>;
  group?: { id: string; key: string; name: string };
  keyLocked?: boolean;
}) {
  const [state, submit, pending] = useActionState(action, {});
  const errorFor = (param: string) => (state.field === param ? state.error : null);
  // After a successful create the fields start empty again; after an edit they show what was saved.
  const saved = state.ok ? state.message : undefined;
  const values = saved && !group ? {} : (state.values ?? group ?? {});
  const prefix = group ? "edit" : "new";
  return (
    <form action={submit} className="space-y-3" key={saved ? `${saved}-${values.key}` : undefined}>
      {group ? <input type="hidden" name="id" value={group.id} /> : null}
      {state.error && !["key", "name"].includes(state.field ?? "") ? (
        <FormMessage tone="error">{state.error}</FormMessage>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          label="Name"
          htmlFor={`${prefix}-group-name`}
          hint="Shown to recipients on the unsubscribe page."
          error={errorFor("name")}
        >
          <Input
            id={`${prefix}-group-name`}
            name="name"
            required
            maxLength={200}
            defaultValue={values.name}
            aria-invalid={Boolean(errorFor("name"))}
          />
        </Field>
        <Field
          label="Key"
          htmlFor={`${prefix}-group-key`}
          hint={
            keyLocked
              ? "In use by messages, unsubscribes or workflows: it can no longer change."
              : "Sends name the group with groupKey. Letters, digits, _ . : -"
          }
          error={errorFor("key")}
        >
          <Input
            id={`${prefix}-group-key`}
            name="key"
            required
            readOnly={keyLocked}
            maxLength={100}
            className="font-mono"
            autoCapitalize="none"
            spellCheck={false}
            defaultValue={values.key}
            aria-invalid={Boolean(errorFor("key"))}
          />
        </Field>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : group ? "Save changes" : "Create group"}
        </Button>
        {saved ? <FormMessage tone="success">{saved}</FormMessage> : null}
      </div>
    </form>
  );
}
