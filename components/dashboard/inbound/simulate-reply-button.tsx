"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";

type SimulateState = FormState<{ message?: string; inboundMessageIds?: string[] }>;
type Action = (previous: SimulateState, form: FormData) => Promise<SimulateState>;

/**
 * "Simulate a reply": the server writes a reply to this message (In-Reply-To its Message-ID) and hands it
 * to this instance's inbound listener over SMTP, the path real replies take, so a thread appears without DNS.
 */
export function SimulateReplyButton({ action, messageId }: { action: Action; messageId: string }) {
  const [state, submit, pending] = useActionState(action, {});
  const stored = state.ok ? (state.inboundMessageIds ?? []) : [];
  return (
    <form action={submit} className="space-y-2">
      <input type="hidden" name="messageId" value={messageId} />
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" variant="secondary" disabled={pending}>
          {pending ? "Sending a reply…" : "Simulate a reply"}
        </Button>
        <span className="text-xs text-slate-500">
          Sends a short reply to this message through the inbound listener, as a recipient&apos;s mail server would.
        </span>
      </div>
      {state.error ? (
        <FormMessage tone="error">
          <span data-testid="simulate-reply-error">{state.error}</span>
        </FormMessage>
      ) : null}
      {state.ok ? (
        <FormMessage tone="success">
          <span data-testid="simulate-reply-result">
            {state.message}{" "}
            {stored.map((id) => (
              <Link key={id} href={`/inbound/${id}`} className="font-mono underline">
                {id}
              </Link>
            ))}
          </span>
        </FormMessage>
      ) : null}
    </form>
  );
}
