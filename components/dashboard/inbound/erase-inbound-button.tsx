"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";

type Action = (previous: FormState, form: FormData) => Promise<FormState>;

/** Erase asks first: what the sender wrote cannot be brought back (docs/inbound.md#retention-and-erasing). */
export function EraseInboundButton({ id, action }: { id: string; action: Action }) {
  const [state, erase] = useActionState(action, {});
  return (
    <form action={erase} className="space-y-2">
      <input type="hidden" name="id" value={id} />
      <ConfirmSubmit label="Erase" title="Erase this mail's content?" confirmLabel="Erase content">
        Its subject, bodies, headers, raw bytes and attachments are removed for good. The envelope, the checks and its
        place in the thread stay.
      </ConfirmSubmit>
      {state.error ? (
        <p role="alert" className="text-xs text-red-700">
          {state.error}
        </p>
      ) : null}
    </form>
  );
}
