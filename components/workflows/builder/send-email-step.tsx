import { Field, Input, Select } from "@/components/ui/field";
import type { AddressField, GroupChoice, SendStepDraft, TemplateChoice } from "@/lib/flows/workflows/builder.shared";
import { addressVariables } from "@/lib/flows/workflows/builder-variables.shared";
import { VariableList } from "./variable-list";

const ADDRESS_INPUTS: Array<{ field: AddressField; label: string; placeholder: string; hint?: string }> = [
  {
    field: "to",
    label: "To",
    placeholder: "{{ user.name }} <{{ user.email }}>",
    hint: "Required. Liquid over the run's variables; comma-separated addresses.",
  },
  { field: "cc", label: "Cc", placeholder: "{{ user.manager_email }}" },
  { field: "bcc", label: "Bcc", placeholder: "audit@example.com" },
  { field: "from", label: "From", placeholder: "The template's sender", hint: "Empty: the template's sender." },
  { field: "replyTo", label: "Reply-to", placeholder: "The template's reply-to" },
];

/**
 * A send-email step: the template (with the variables it uses, and a flag when it no longer exists),
 * the address fields as Liquid, the unsubscribe group and the locale.
 */
export function SendEmailStep({
  step,
  templates,
  groups,
  errors,
  onChange,
}: {
  step: SendStepDraft;
  templates: TemplateChoice[];
  groups: GroupChoice[];
  errors: Record<string, string>;
  onChange: (patch: Partial<SendStepDraft>) => void;
}) {
  const id = `step-${step.uid}`;
  const template = templates.find((choice) => choice.id === step.templateId);
  const templateMissing = step.templateId !== "" && !template;
  const groupMissing = step.groupKey !== "" && !groups.some((group) => group.key === step.groupKey);
  const templateError =
    errors.templateId ??
    (templateMissing ? `Template ${step.templateId} no longer exists: choose another.` : undefined);
  const groupError =
    errors.groupKey ?? (groupMissing ? `The unsubscribe group "${step.groupKey}" no longer exists.` : undefined);
  return (
    <div className="space-y-3">
      <Field label="Template" htmlFor={`${id}-template`} error={templateError}>
        <div className="flex items-center gap-2">
          <Select
            id={`${id}-template`}
            value={step.templateId}
            aria-invalid={Boolean(templateError)}
            onChange={(event) => onChange({ templateId: event.target.value })}
          >
            <option value="">Choose a template…</option>
            {templateMissing ? (
              <option value={step.templateId}>{`Missing template (${step.templateId})`}</option>
            ) : null}
            {templates.map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.name}
              </option>
            ))}
          </Select>
          {template ? (
            <a
              href={`/templates/${template.id}`}
              target="_blank"
              rel="noreferrer"
              className="shrink-0 text-sm text-indigo-600 hover:underline"
            >
              Open template
            </a>
          ) : null}
        </div>
      </Field>
      <div className="grid gap-3 sm:grid-cols-2">
        {ADDRESS_INPUTS.map(({ field, label, placeholder, hint }) => (
          <Field key={field} label={label} htmlFor={`${id}-${field}`} hint={hint} error={errors[field]}>
            <Input
              id={`${id}-${field}`}
              value={step[field]}
              placeholder={placeholder}
              className="font-mono"
              spellCheck={false}
              autoCapitalize="none"
              aria-invalid={Boolean(errors[field])}
              onChange={(event) => onChange({ [field]: event.target.value })}
            />
          </Field>
        ))}
        <Field label="Unsubscribe group" htmlFor={`${id}-group`} hint="None for transactional mail." error={groupError}>
          <Select
            id={`${id}-group`}
            value={step.groupKey}
            aria-invalid={Boolean(groupError)}
            onChange={(event) => onChange({ groupKey: event.target.value })}
          >
            <option value="">None</option>
            {groupMissing ? <option value={step.groupKey}>{`Missing group (${step.groupKey})`}</option> : null}
            {groups.map((group) => (
              <option key={group.key} value={group.key}>
                {`${group.name} (${group.key})`}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          label="Locale"
          htmlFor={`${id}-locale`}
          hint='A tag (fr-CA), Liquid ({{ user.language }}) or "contact". Empty: the run’s variables.locale, else the contact’s.'
          error={errors.locale}
        >
          <Input
            id={`${id}-locale`}
            value={step.locale}
            placeholder="The run's or the contact's"
            className="font-mono"
            spellCheck={false}
            autoCapitalize="none"
            aria-invalid={Boolean(errors.locale)}
            onChange={(event) => onChange({ locale: event.target.value })}
          />
        </Field>
      </div>
      <dl className="grid gap-1 text-xs text-slate-600 sm:grid-cols-[11rem_minmax(0,1fr)]" data-testid="step-variables">
        <dt>The template uses</dt>
        <dd>
          {template ? (
            <VariableList paths={template.variables} label="Template variables" />
          ) : (
            <span className="text-slate-400">—</span>
          )}
        </dd>
        <dt>The address fields use</dt>
        <dd>
          <VariableList paths={addressVariables(step)} label="Address variables" />
        </dd>
      </dl>
    </div>
  );
}
