"use client";

import { useActionState } from "react";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import type { SettingsAction } from "./form-state.shared";

export function RevokeInvitationButton({
  invitationId,
  email,
  action,
}: {
  invitationId: string;
  email: string;
  action: SettingsAction;
}) {
  const [state, submit] = useActionState(action, {});
  return (
    <form action={submit} className="space-y-1">
      <input type="hidden" name="invitationId" value={invitationId} />
      <ConfirmSubmit
        label="Revoke"
        title={`Revoke the invitation to ${email}?`}
        variant="secondary"
        confirmLabel="Revoke invitation"
      >
        The emailed link stops working at once. You can invite the address again later.
      </ConfirmSubmit>
      {state.error ? (
        <p role="alert" className="text-xs text-red-600">
          {state.error}
        </p>
      ) : null}
    </form>
  );
}
