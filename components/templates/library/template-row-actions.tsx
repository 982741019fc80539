"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";

type State = FormState;
type Action = (previous: State, form: FormData) => Promise<State>;

/**
 * A template row's Duplicate and Delete. Delete asks first; a refusal (a workflow still sends the
 * template) is shown under the buttons with the workflows' names.
 */
export function TemplateRowActions({
  templateId,
  name,
  duplicateAction,
  deleteAction,
}: {
  templateId: string;
  name: string;
  duplicateAction: Action;
  deleteAction: Action;
}) {
  const [duplicated, duplicate, duplicating] = useActionState(duplicateAction, {});
  const [deleted, remove] = useActionState(deleteAction, {});
  const error = deleted.error ?? duplicated.error;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap justify-end gap-2">
        <form action={duplicate}>
          <input type="hidden" name="templateId" value={templateId} />
          <Button type="submit" variant="secondary" disabled={duplicating} aria-label={`Duplicate ${name}`}>
            {duplicating ? "Duplicating…" : "Duplicate"}
          </Button>
        </form>
        <form action={remove}>
          <input type="hidden" name="templateId" value={templateId} />
          <ConfirmSubmit label="Delete" title={`Delete “${name}”?`} confirmLabel="Delete template">
            The template and all its versions and sample data are deleted. Messages already sent from it keep their
            content. A template that a workflow sends cannot be deleted.
          </ConfirmSubmit>
        </form>
      </div>
      {error ? (
        <p role="alert" className="max-w-xs text-left text-xs text-red-700" data-testid="template-action-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
