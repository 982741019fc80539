"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Input } from "@/components/ui/field";
import type { SettingsAction } from "./form-state.shared";

export interface RetentionFormProps {
  bodyRetentionDays: number | null;
  metadataRetentionDays: number | null;
  legalHold: boolean;
  /** What an empty field falls back to, and the instance's ceilings (docs/retention.md#windows). */
  defaults: { bodyDays: number; metadataDays: number; maxBodyDays: number; maxMetadataDays: number };
  action: SettingsAction;
}

/** A workspace's retention windows and legal hold; an empty window follows the instance default. */
export function RetentionForm({
  bodyRetentionDays,
  metadataRetentionDays,
  legalHold,
  defaults,
  action,
}: RetentionFormProps) {
  const [state, submit, pending] = useActionState(action, {});
  const errorOf = (field: string) => (state.field === field ? state.error : null);
  const days = (field: string, stored: number | null) =>
    state.values?.[field] ?? (stored === null ? "" : String(stored));
  return (
    <form action={submit} className="space-y-4" aria-label="Retention settings">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Keep bodies (days)"
          htmlFor="retention-body-days"
          hint={`HTML, text, variables, stored MIME, attachments and inbound content. 1–${defaults.maxBodyDays}; empty: ${defaults.bodyDays} (the default).`}
          error={errorOf("bodyRetentionDays")}
        >
          <Input
            id="retention-body-days"
            name="bodyRetentionDays"
            inputMode="numeric"
            defaultValue={days("bodyRetentionDays", bodyRetentionDays)}
            placeholder={String(defaults.bodyDays)}
            aria-invalid={Boolean(errorOf("bodyRetentionDays"))}
          />
        </Field>
        <Field
          label="Keep messages and timelines (days)"
          htmlFor="retention-metadata-days"
          hint={`Messages, events, inbound mail and webhook logs, never shorter than bodies. 7–${defaults.maxMetadataDays}; empty: ${defaults.metadataDays}.`}
          error={errorOf("metadataRetentionDays")}
        >
          <Input
            id="retention-metadata-days"
            name="metadataRetentionDays"
            inputMode="numeric"
            defaultValue={days("metadataRetentionDays", metadataRetentionDays)}
            placeholder={String(defaults.metadataDays)}
            aria-invalid={Boolean(errorOf("metadataRetentionDays"))}
          />
        </Field>
      </div>
      <div className="flex gap-3">
        <input
          id="retention-legal-hold"
          name="legalHold"
          type="checkbox"
          defaultChecked={legalHold}
          aria-describedby="retention-legal-hold-hint"
          className="mt-0.5 size-4 shrink-0 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600"
        />
        <div className="min-w-0">
          <label htmlFor="retention-legal-hold" className="block text-sm font-medium text-slate-800">
            Legal hold
          </label>
          <p id="retention-legal-hold-hint" className="text-xs text-slate-500">
            While on, nothing of this workspace is purged: bodies, messages, logs and uploads all stay until it is
            lifted.
          </p>
        </div>
      </div>
      {state.error && !errorOf("bodyRetentionDays") && !errorOf("metadataRetentionDays") ? (
        <FormMessage tone="error">{state.error}</FormMessage>
      ) : null}
      {state.ok && state.message ? <FormMessage tone="success">{state.message}</FormMessage> : null}
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Save retention"}
      </Button>
    </form>
  );
}
