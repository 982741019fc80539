"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Input, Select } from "@/components/ui/field";
import { ROLE_LABELS, type Role } from "@/lib/foundation/access/roles.shared";
import { CopyButton } from "@/components/ui/copy-button";
import type { InviteAction } from "./form-state.shared";

/** Invite by email; the link goes out as system mail, and is shown to copy only when that mail is local. */
export function InviteForm({ roles, action }: { roles: Role[]; action: InviteAction }) {
  const [state, submit, pending] = useActionState(action, {});
  const errorFor = (param: string) => (state.field === param ? state.error : null);
  return (
    <form action={submit} className="space-y-3" aria-label="Invite a member">
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_10rem_auto] sm:items-end">
        <Field label="Email to invite" htmlFor="invite-email" error={errorFor("email")}>
          <Input
            id="invite-email"
            name="email"
            type="email"
            required
            autoComplete="off"
            defaultValue={state.values?.email}
            aria-invalid={Boolean(errorFor("email"))}
          />
        </Field>
        <Field label="Role" htmlFor="invite-role" error={errorFor("role")}>
          <Select id="invite-role" name="role" defaultValue={state.values?.role ?? "MEMBER"}>
            {roles.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </Select>
        </Field>
        <Button type="submit" disabled={pending}>
          {pending ? "Sending…" : "Send invitation"}
        </Button>
      </div>
      {state.error && !errorFor("email") && !errorFor("role") ? (
        <FormMessage tone="error">{state.error}</FormMessage>
      ) : null}
      {state.ok && state.message ? <FormMessage tone="success">{state.message}</FormMessage> : null}
      {state.ok && state.link ? (
        <div className="flex items-center gap-2">
          <code
            data-testid="invitation-link"
            className="min-w-0 flex-1 truncate rounded bg-slate-100 px-2 py-1 text-xs text-slate-700"
          >
            {state.link}
          </code>
          <CopyButton value={state.link} label="Copy invitation link" />
        </div>
      ) : null}
    </form>
  );
}
