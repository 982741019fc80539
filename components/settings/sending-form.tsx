"use client";

import { useActionState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import type { SettingsAction } from "./form-state.shared";

interface Props {
  testMode: boolean;
  trackingEnabled: boolean;
  /** The System mail workspace: always live, never tracked (the server refuses otherwise too). */
  locked: boolean;
  action: SettingsAction;
}

export function SendingForm({ testMode, trackingEnabled, locked, action }: Props) {
  const [state, submit, pending] = useActionState(action, {});
  return (
    <form action={submit} className="space-y-4" aria-label="Sending settings">
      <Toggle name="testMode" label="Test mode" defaultChecked={testMode} disabled={locked}>
        Live sends may go only to the members of this workspace; other recipients are refused. The sandbox is
        unaffected.
      </Toggle>
      <Toggle name="trackingEnabled" label="Open and click tracking" defaultChecked={trackingEnabled} disabled={locked}>
        Adds a tracking pixel and rewrites links, so opens and clicks appear on each message&apos;s timeline.
      </Toggle>
      {locked ? (
        <p className="text-xs text-slate-500">
          System mail always sends live and untracked: sign-in links must reach any address and never pass through
          redirects.
        </p>
      ) : null}
      {state.error ? <FormMessage tone="error">{state.error}</FormMessage> : null}
      {state.ok && state.message ? <FormMessage tone="success">{state.message}</FormMessage> : null}
      {locked ? null : (
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save sending settings"}
        </Button>
      )}
    </form>
  );
}

function Toggle({
  name,
  label,
  defaultChecked,
  disabled,
  children,
}: {
  name: string;
  label: string;
  defaultChecked: boolean;
  disabled: boolean;
  children: ReactNode;
}) {
  const id = `setting-${name}`;
  return (
    <div className="flex gap-3">
      <input
        id={id}
        name={name}
        type="checkbox"
        defaultChecked={defaultChecked}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        className="mt-0.5 size-4 shrink-0 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600"
      />
      <div className="min-w-0">
        <label htmlFor={id} className="block text-sm font-medium text-slate-800">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {children}
        </p>
      </div>
    </div>
  );
}
