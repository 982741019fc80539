"use client";

import { useActionState, type ReactNode } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { FormMessage } from "@/components/ui/field";

type Action = (previous: FormState, form: FormData) => Promise<FormState>;

/** Delete, asking first; the refusal (a rule still naming a connection, say) is said beside it. */
export function DeleteButton({
  id,
  title,
  action,
  children,
}: {
  id: string;
  title: string;
  action: Action;
  children: ReactNode;
}) {
  const [state, submit] = useActionState(action, {});
  return (
    <form action={submit} className="flex flex-col items-start gap-2 sm:items-end">
      <input type="hidden" name="id" value={id} />
      <ConfirmSubmit label="Delete" title={title}>
        {children}
      </ConfirmSubmit>
      {state.error ? (
        <div className="max-w-md" data-testid="delete-error">
          <FormMessage tone="error">{state.error}</FormMessage>
        </div>
      ) : null}
    </form>
  );
}
