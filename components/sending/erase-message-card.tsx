"use client";

import { useActionState } from "react";
import { Card } from "@/components/ui/card";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { Field, FormMessage, Input } from "@/components/ui/field";

type State = { error?: string; notice?: string; messageId?: string };
type Action = (previous: State, form: FormData) => Promise<State>;

/** Settings → Erase a message: removes bodies, variables and stored MIME for good; metadata and timeline stay. */
export function EraseMessageCard({ action }: { action: Action }) {
  const [state, submit] = useActionState(action, {});
  return (
    <Card
      title="Erase a message"
      id="erase"
      description="For privacy requests: the content is removed for good; the message stays listed as DELETED."
    >
      <form action={submit} className="space-y-3">
        {state.error || state.notice ? (
          <FormMessage tone={state.error ? "error" : "success"}>{state.error ?? state.notice}</FormMessage>
        ) : null}
        <Field label="Message id" htmlFor="erase-message-id" hint="em_… (shown on the message's page)">
          <Input
            id="erase-message-id"
            name="messageId"
            required
            pattern="em_[0-9A-Za-z]{16}"
            defaultValue={state.error ? state.messageId : undefined}
          />
        </Field>
        <ConfirmSubmit label="Erase message" title="Erase this message's content?">
          Its subject, bodies, variables and stored MIME are deleted and cannot be recovered.
        </ConfirmSubmit>
      </form>
    </Card>
  );
}
