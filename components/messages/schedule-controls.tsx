"use client";

import { useActionState, useState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { Field, FormMessage, Input } from "@/components/ui/field";

type Action = (previous: FormState, form: FormData) => Promise<FormState>;

/** A datetime-local value ("2030-03-02T09:00") read in the browser's zone, as the ISO instant the server checks. */
function toInstant(local: string): string {
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? local : at.toISOString();
}

/**
 * "Cancel" and "Reschedule" of a message still waiting for its time (admins only; the page shows them
 * while the message is PENDING or PAUSED with a scheduledAt and not handed over). Each answer (or the
 * server's refusal, e.g. already handed over) is shown beside its form.
 */
export function ScheduleControls({
  cancelAction,
  rescheduleAction,
  messageId,
}: {
  cancelAction: Action;
  rescheduleAction: Action;
  messageId: string;
}) {
  const [cancelState, cancel] = useActionState(cancelAction, {});
  const [rescheduleState, reschedule] = useActionState(rescheduleAction, {});
  // Empty at first: the server cannot know the browser's zone to fill it without a hydration mismatch.
  const [local, setLocal] = useState("");
  return (
    <div className="mt-3 flex flex-wrap items-end gap-4" data-testid="schedule-controls">
      <form action={cancel} className="flex flex-wrap items-center gap-2">
        <input type="hidden" name="messageId" value={messageId} />
        <ConfirmSubmit
          label="Cancel sending"
          title="Cancel this scheduled message?"
          confirmLabel="Cancel sending"
          dismissLabel="Keep it"
        >
          It will never be sent; its status becomes CANCELLED. This cannot be undone.
        </ConfirmSubmit>
      </form>
      <form action={reschedule} className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="messageId" value={messageId} />
        <input type="hidden" name="scheduledAt" value={toInstant(local)} />
        <Field label="New time (your time zone)" htmlFor="reschedule-at">
          <Input
            id="reschedule-at"
            type="datetime-local"
            step={60}
            value={local}
            onChange={(event) => setLocal(event.target.value)}
            required
          />
        </Field>
        <Button type="submit" variant="secondary">
          Reschedule
        </Button>
      </form>
      {[cancelState, rescheduleState].map((state, index) =>
        state.error ? (
          <FormMessage key={index} tone="error">
            <span data-testid="schedule-error">{state.error}</span>
          </FormMessage>
        ) : state.ok && "message" in state ? (
          <FormMessage key={index} tone="success">
            <span data-testid="schedule-result">{state.message}</span>
          </FormMessage>
        ) : null,
      )}
    </div>
  );
}
