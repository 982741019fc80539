"use client";

import { useActionState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { Field, FormMessage, Input } from "@/components/ui/field";

export interface SendingState {
  paused: boolean;
  reason: string | null;
  pausedAt: string | null;
  automatic: boolean;
  pausedMessages: number;
}

type State = { error?: string; notice?: string };
type FormAction = (previous: State, form: FormData) => Promise<State>;
type PlainAction = (previous: State) => Promise<State>;

interface Actions {
  pause: FormAction;
  resume: PlainAction;
  discard: PlainAction;
}

/** Settings → Sending: whether live mail goes out, why it is paused (by whom or automatically), and the switch. */
export function SendingCard({
  sending,
  canEdit,
  actions,
}: {
  sending: SendingState;
  canEdit: boolean;
  actions: Actions;
}) {
  const [pauseState, pause, pausing] = useActionState(actions.pause, {});
  const [resumeState, resume, resuming] = useActionState(actions.resume, {});
  const [discardState, discard, discarding] = useActionState(actions.discard, {});
  const outcome = [pauseState, resumeState, discardState].find((state) => state.error || state.notice);
  return (
    <Card
      title="Sending state"
      id="sending-state"
      description="Pausing holds accepted live messages as PAUSED; resuming sends them."
    >
      <div className="space-y-4">
        <div className="flex flex-wrap items-center gap-2" data-testid="sending-status">
          {sending.paused ? <Badge tone="warning">Paused</Badge> : <Badge tone="success">Sending</Badge>}
          {sending.paused && sending.automatic ? <Badge tone="danger">Automatic pause</Badge> : null}
          {sending.paused && sending.pausedAt ? (
            <span className="text-sm text-slate-600">since {sending.pausedAt.replace("T", " ").slice(0, 19)} UTC</span>
          ) : null}
        </div>
        {sending.paused && sending.reason ? <p className="text-sm text-slate-700">Reason: {sending.reason}</p> : null}
        {sending.paused ? (
          <p className="text-sm text-slate-600">
            {sending.pausedMessages} live {sending.pausedMessages === 1 ? "message is" : "messages are"} waiting.
          </p>
        ) : null}
        {outcome ? (
          <FormMessage tone={outcome.error ? "error" : "success"}>{outcome.error ?? outcome.notice}</FormMessage>
        ) : null}
        {canEdit && !sending.paused ? (
          <form action={pause} className="flex flex-wrap items-end gap-2">
            <div className="min-w-60 flex-1">
              <Field label="Reason (shown to the team)" htmlFor="pause-reason">
                <Input id="pause-reason" name="reason" maxLength={500} placeholder="Investigating a bounce spike" />
              </Field>
            </div>
            <Button type="submit" variant="secondary" disabled={pausing}>
              Pause sending
            </Button>
          </form>
        ) : null}
        {canEdit && sending.paused ? (
          <div className="flex flex-wrap gap-2">
            <form action={resume}>
              <Button type="submit" disabled={resuming}>
                Resume sending
              </Button>
            </form>
            <form action={discard}>
              <ConfirmSubmit label="Discard paused messages" title="Discard the paused messages?">
                {discarding
                  ? "Discarding…"
                  : "They become DELETED: their content is erased and they are never sent. This cannot be undone."}
              </ConfirmSubmit>
            </form>
          </div>
        ) : null}
      </div>
    </Card>
  );
}
