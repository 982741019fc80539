"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { FormMessage } from "@/components/ui/field";

type Action = (previous: FormState, form: FormData) => Promise<FormState>;

/** "Resend": asks first (it sends real mail), then the action opens the new message's page. */
export function ResendButton({ action, messageId, sandbox }: { action: Action; messageId: string; sandbox: boolean }) {
  const [state, submit] = useActionState(action, {});
  return (
    <form action={submit} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="messageId" value={messageId} />
      <ConfirmSubmit label="Resend" title="Resend this message?" variant="secondary">
        {sandbox
          ? "A new sandbox message with the same content is created; nothing is delivered."
          : "A new message with the same recipients and content is sent now, with the usual checks (test mode, suppression, paused sending)."}
      </ConfirmSubmit>
      {state.error ? (
        <FormMessage tone="error">
          <span data-testid="resend-error">{state.error}</span>
        </FormMessage>
      ) : null}
    </form>
  );
}
