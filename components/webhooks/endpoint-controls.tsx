"use client";

import { useActionState, useState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { Field, FormMessage, Input } from "@/components/ui/field";
import { SecretOnce } from "./secret-once";

type SaveState = FormState<{ message: string }>;
type SecretState = FormState<{ secret: string; previousSecretExpiresAt: string | null }>;
type Action<S> = (previous: S, form: FormData) => Promise<S>;

export interface ControlActions {
  setEnabled: Action<SaveState>;
  rotate: Action<SecretState>;
  test: Action<SaveState>;
  remove: (form: FormData) => Promise<void>;
}

/** A datetime-local value read in the browser's zone, as the ISO instant the server checks. */
export function toInstant(local: string): string {
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? local : at.toISOString();
}

/** "2026-11-25T04:18" in the browser's zone: the value a datetime-local input shows for an instant. */
export function toLocalInput(iso: string): string {
  const at = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/**
 * Send a test event, disable or enable, rotate the secret, delete. Enabling an endpoint the service
 * disabled offers to replay what it missed since it started failing (checked by default).
 */
export function EndpointControls({
  id,
  enabled,
  disabledReason,
  missedSince,
  actions,
}: {
  id: string;
  enabled: boolean;
  disabledReason: string | null;
  missedSince: string | null;
  actions: ControlActions;
}) {
  const [testState, test, testing] = useActionState(actions.test, {});
  const [enableState, setEnabled, switching] = useActionState(actions.setEnabled, {});
  const [rotateState, rotate, rotating] = useActionState(actions.rotate, {});
  return (
    <div className="space-y-3" data-testid="endpoint-controls">
      <div className="flex flex-wrap items-start gap-2">
        <form action={test}>
          <input type="hidden" name="id" value={id} />
          <Button type="submit" variant="secondary" disabled={testing || !enabled}>
            Send test event
          </Button>
        </form>
        {enabled ? (
          <form action={setEnabled}>
            <input type="hidden" name="id" value={id} />
            <input type="hidden" name="enabled" value="false" />
            <Button type="submit" variant="secondary" disabled={switching}>
              Disable
            </Button>
          </form>
        ) : null}
        <form action={rotate}>
          <input type="hidden" name="id" value={id} />
          <ConfirmSubmit
            label="Rotate secret"
            title="Rotate the signing secret?"
            variant="secondary"
            confirmLabel={rotating ? "Rotating…" : "Rotate"}
          >
            A new secret signs every delivery from now on; the current one keeps signing alongside it for 24 hours, so
            the receiver can switch without a gap.
          </ConfirmSubmit>
        </form>
        <form action={actions.remove}>
          <input type="hidden" name="id" value={id} />
          <ConfirmSubmit label="Delete" title="Delete this endpoint?">
            Its deliveries and attempt log are deleted with it; events stay in the feed. This cannot be undone.
          </ConfirmSubmit>
        </form>
      </div>
      {enabled ? null : (
        <EnableForm
          id={id}
          disabledReason={disabledReason}
          missedSince={missedSince}
          submit={setEnabled}
          pending={switching}
        />
      )}
      <Outcome state={testState} testId="test-result" />
      <Outcome state={enableState} testId="enable-result" />
      {rotateState.ok ? (
        <SecretOnce title="New signing secret: copy it now" secret={rotateState.secret} testId="rotated-secret">
          The previous secret also signs until{" "}
          {rotateState.previousSecretExpiresAt
            ? new Date(rotateState.previousSecretExpiresAt).toLocaleString()
            : "24 hours from now"}
          .
        </SecretOnce>
      ) : (
        <Outcome state={rotateState} testId="rotate-result" />
      )}
    </div>
  );
}

function EnableForm({
  id,
  disabledReason,
  missedSince,
  submit,
  pending,
}: {
  id: string;
  disabledReason: string | null;
  missedSince: string | null;
  submit: (form: FormData) => void;
  pending: boolean;
}) {
  // Only an endpoint the service disabled missed events it should have had; one a person disabled did so on purpose.
  const [replay, setReplay] = useState(Boolean(disabledReason));
  const [local, setLocal] = useState(() => (missedSince ? toLocalInput(missedSince) : ""));
  return (
    <form
      action={submit}
      className="flex flex-wrap items-end gap-3 rounded-md border border-slate-200 p-3"
      data-testid="enable-form"
    >
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="enabled" value="true" />
      {replay && local ? <input type="hidden" name="replaySince" value={toInstant(local)} /> : null}
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          checked={replay}
          onChange={(event) => setReplay(event.target.checked)}
          data-testid="enable-replay"
        />
        Also replay the events it missed since
      </label>
      <Field label="Since (your time zone)" htmlFor="enable-replay-since">
        <Input
          id="enable-replay-since"
          type="datetime-local"
          step={60}
          value={local}
          onChange={(event) => setLocal(event.target.value)}
          disabled={!replay}
          required={replay}
        />
      </Field>
      <Button type="submit" disabled={pending}>
        Enable
      </Button>
    </form>
  );
}

function Outcome({ state, testId }: { state: FormState<object> & { message?: string }; testId: string }) {
  if (state.error) return <FormMessage tone="error">{state.error}</FormMessage>;
  if (state.ok && state.message) {
    return (
      <FormMessage tone="success">
        <span data-testid={testId}>{state.message}</span>
      </FormMessage>
    );
  }
  return null;
}
