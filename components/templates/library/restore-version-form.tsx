"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { FormMessage } from "@/components/ui/field";

type State = FormState;

/** Restores a version after asking; the answer is a new version, so the current content stays in the history. */
export function RestoreVersionForm({
  templateId,
  version,
  currentVersion,
  action,
}: {
  templateId: string;
  version: number;
  currentVersion: number;
  action: (previous: State, form: FormData) => Promise<State>;
}) {
  const [state, submit] = useActionState(action, {});
  return (
    <form action={submit} className="space-y-2">
      <input type="hidden" name="templateId" value={templateId} />
      <input type="hidden" name="version" value={version} />
      <input type="hidden" name="baseVersion" value={currentVersion} />
      <ConfirmSubmit
        label="Restore this version"
        title={`Restore version ${version}?`}
        variant="primary"
        confirmLabel={`Restore as v${currentVersion + 1}`}
      >
        The content of v{version} (name, subject, HTML, text, sender fields and settings) is saved as a new version, v
        {currentVersion + 1}. Nothing is lost: v{currentVersion} stays in the history and can be restored the same way.
      </ConfirmSubmit>
      {state.error ? <FormMessage tone="error">{state.error}</FormMessage> : null}
    </form>
  );
}
