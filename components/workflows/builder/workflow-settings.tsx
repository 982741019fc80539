import { Field, Input } from "@/components/ui/field";
import type { WorkflowDraft } from "@/lib/flows/workflows/builder.shared";

/** Name, key and enabled: the workflow as a whole. */
export function WorkflowSettings({
  draft,
  errors,
  onChange,
}: {
  draft: WorkflowDraft;
  errors: Record<string, string>;
  onChange: (patch: Partial<Omit<WorkflowDraft, "steps">>) => void;
}) {
  return (
    <div className="space-y-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Name" htmlFor="workflow-name" error={errors.name}>
          <Input
            id="workflow-name"
            value={draft.name}
            maxLength={200}
            aria-invalid={Boolean(errors.name)}
            onChange={(event) => onChange({ name: event.target.value })}
          />
        </Field>
        <Field
          label="Key"
          htmlFor="workflow-key"
          hint="What your code triggers with (workflowKey); unique in the workspace. Empty: trigger by id only."
          error={errors.key}
        >
          <Input
            id="workflow-key"
            value={draft.key}
            maxLength={100}
            className="font-mono"
            placeholder="user.signed_up"
            spellCheck={false}
            autoCapitalize="none"
            aria-invalid={Boolean(errors.key)}
            onChange={(event) => onChange({ key: event.target.value })}
          />
        </Field>
      </div>
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          className="mt-0.5 size-4 rounded border-slate-300"
          checked={draft.enabled}
          onChange={(event) => onChange({ enabled: event.target.checked })}
        />
        <span>
          Enabled
          <span className="block text-xs text-slate-500">
            While disabled, triggering it gives a skipped run and sends nothing. Test runs work either way.
          </span>
        </span>
      </label>
    </div>
  );
}
