"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";

export type RowAction = (previous: FormState<object>, form: FormData) => Promise<FormState<object>>;

/**
 * Enable/disable and delete for one workflow (list row or builder). The confirm says what deleting
 * does to runs, since that is the question people have.
 */
export function WorkflowRowActions({
  workflow,
  setEnabled,
  remove,
  showToggle = true,
}: {
  workflow: { id: string; name: string; enabled: boolean };
  setEnabled: RowAction;
  remove: RowAction;
  showToggle?: boolean;
}) {
  const [toggleState, submitToggle, toggling] = useActionState(setEnabled, {});
  const [removeState, submitRemove, removing] = useActionState(remove, {});
  const error = toggleState.error ?? removeState.error;
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center gap-2">
        {showToggle ? (
          <form action={submitToggle}>
            <input type="hidden" name="id" value={workflow.id} />
            <input type="hidden" name="enabled" value={workflow.enabled ? "false" : "true"} />
            <Button
              type="submit"
              variant="secondary"
              disabled={toggling}
              aria-label={`${workflow.enabled ? "Disable" : "Enable"} ${workflow.name}`}
            >
              {workflow.enabled ? "Disable" : "Enable"}
            </Button>
          </form>
        ) : null}
        <form action={submitRemove}>
          <input type="hidden" name="id" value={workflow.id} />
          <ConfirmSubmit
            label={removing ? "Deleting…" : "Delete"}
            title={`Delete the workflow “${workflow.name}”?`}
            confirmLabel="Delete workflow"
          >
            <p>It can no longer be triggered; its key becomes free, and triggering the key gives a skipped run.</p>
            <p className="mt-2">
              Its runs are kept in Workflow runs, no longer linked to it. Runs already started finish their remaining
              steps (each run holds its own copy of them).
            </p>
          </ConfirmSubmit>
        </form>
      </div>
      {error ? (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
