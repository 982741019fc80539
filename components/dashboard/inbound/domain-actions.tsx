"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { FormMessage } from "@/components/ui/field";

type Action = (previous: FormState, form: FormData) => Promise<FormState>;

/** Verify (looks the MX record up now) and Delete (asks first) for an inbound domain; admins only. */
export function DomainActions({
  domainId,
  domainName,
  verifyAction,
  deleteAction,
}: {
  domainId: string;
  domainName: string;
  verifyAction: Action;
  deleteAction: Action;
}) {
  const [verified, verify, verifying] = useActionState(verifyAction, {});
  const [deleted, remove] = useActionState(deleteAction, {});
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <form action={verify}>
          <input type="hidden" name="id" value={domainId} />
          <Button type="submit" disabled={verifying}>
            {verifying ? "Checking DNS…" : "Verify MX record"}
          </Button>
        </form>
        <form action={remove}>
          <input type="hidden" name="id" value={domainId} />
          <ConfirmSubmit label="Delete domain" title={`Delete ${domainName}?`}>
            Its routes are deleted with it and mail to it is refused from now on. Mail already received stays.
          </ConfirmSubmit>
        </form>
      </div>
      {verified.ok && verified.message ? (
        <div data-testid="verify-result">
          <FormMessage tone={verified.message.startsWith("Verified") ? "success" : "error"}>
            {verified.message}
          </FormMessage>
        </div>
      ) : null}
      {verified.error ? <FormMessage tone="error">{verified.error}</FormMessage> : null}
      {deleted.error ? <FormMessage tone="error">{deleted.error}</FormMessage> : null}
    </div>
  );
}

/** Delete a route, asking first; the refusal, if any, is said beside it. */
export function DeleteRouteButton({ routeId, pattern, action }: { routeId: string; pattern: string; action: Action }) {
  const [state, submit] = useActionState(action, {});
  return (
    <form action={submit} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="routeId" value={routeId} />
      <ConfirmSubmit label="Delete" title={`Delete the route ${pattern}?`} variant="danger">
        Mail to it is refused from now on, unless a wider route (such as *@domain) matches it.
      </ConfirmSubmit>
      {state.error ? <FormMessage tone="error">{state.error}</FormMessage> : null}
    </form>
  );
}
