"use client";

import { useActionState, useState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Input, Select } from "@/components/ui/field";
import { toInstant } from "./endpoint-controls";

type SaveState = FormState<{ message: string }>;
type Action = (previous: SaveState, form: FormData) => Promise<SaveState>;

/** "Replay all failed since…": the events since a time that never reached the endpoint (or every one), sent again. */
export function ReplayForm({ id, action }: { id: string; action: Action }) {
  const [state, submit, pending] = useActionState(action, {});
  const [local, setLocal] = useState("");
  return (
    <form action={submit} className="space-y-3" data-testid="replay-form">
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="since" value={toInstant(local)} />
      <div className="flex flex-wrap items-end gap-3">
        <Field label="Since (your time zone)" htmlFor="replay-since">
          <Input
            id="replay-since"
            type="datetime-local"
            step={60}
            value={local}
            onChange={(event) => setLocal(event.target.value)}
            required
          />
        </Field>
        <Field label="Which" htmlFor="replay-mode">
          <Select id="replay-mode" name="mode" defaultValue="missed">
            <option value="missed">Those that never arrived (failed or missed)</option>
            <option value="all">Every event</option>
          </Select>
        </Field>
        <Button type="submit" variant="secondary" disabled={pending}>
          Replay
        </Button>
      </div>
      {state.error ? <FormMessage tone="error">{state.error}</FormMessage> : null}
      {state.ok ? (
        <FormMessage tone="success">
          <span data-testid="replay-result">{state.message}</span>
        </FormMessage>
      ) : null}
    </form>
  );
}

/** "Resend this event": one event to this endpoint again, whatever became of it. */
export function ResendEventButton({ id, eventId, action }: { id: string; eventId: string; action: Action }) {
  const [state, submit, pending] = useActionState(action, {});
  return (
    <form action={submit} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="eventId" value={eventId} />
      <Button type="submit" variant="secondary" disabled={pending}>
        Resend this event
      </Button>
      {state.error ? <FormMessage tone="error">{state.error}</FormMessage> : null}
      {state.ok ? (
        <FormMessage tone="success">
          <span data-testid="resend-result">{state.message}</span>
        </FormMessage>
      ) : null}
    </form>
  );
}
