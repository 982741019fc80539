"use client";

import { useActionState, useMemo, useState, useSyncExternalStore } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Input } from "@/components/ui/field";
import { BLANK_TEMPLATE_NAME } from "@/lib/domain/templates/blank.shared";
import { blocksToLiquidHtml, emptyBlocksDocument } from "@/lib/domain/templates/blocks.shared";
import { TEMPLATE_NAME_MAX } from "@/lib/domain/templates/schemas";
import { EmailThumbnail } from "./email-thumbnail";

type State = FormState;

export interface StarterCard {
  key: string;
  name: string;
  description: string;
  /** Rendered with the starter's sample data on the server. */
  previewHtml: string;
}

const noSubscription = () => () => {};

/**
 * Choose what a new template starts from: blank code, blank visual blocks, or a starter, then name it.
 * The block document is compiled to Liquid HTML here, in the browser, and sent with the document:
 * server code cannot render it (lib/domain/templates/blocks.shared.ts).
 */
export function NewTemplateForm({
  starters,
  blankCodeHtml,
  action,
}: {
  starters: StarterCard[];
  blankCodeHtml: string;
  action: (previous: State, form: FormData) => Promise<State>;
}) {
  const [state, submit, pending] = useActionState(action, {});
  const [choice, setChoice] = useState(state.values?.choice || "code");
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  // The thumbnail shows the blank document as compiled, Liquid included; compiled in the browser only.
  const blankBlocksHtml = useMemo(() => (inBrowser ? blocksToLiquidHtml(emptyBlocksDocument()) : ""), [inBrowser]);
  const options = [
    {
      value: "code",
      name: "Blank (code)",
      description: "Liquid HTML in the code editor, for full control.",
      html: blankCodeHtml,
    },
    {
      value: "blocks",
      name: "Blank (visual blocks)",
      description: "Headings, text, buttons and images arranged visually; no HTML needed.",
      html: blankBlocksHtml,
    },
    ...starters.map((starter) => ({
      value: `starter:${starter.key}`,
      name: starter.name,
      description: starter.description,
      html: starter.previewHtml,
    })),
  ];
  const chosen = options.find((option) => option.value === choice);
  const nameError = state.field === "name" ? state.error : null;
  const formError = state.error && state.field !== "name" ? state.error : null;

  const create = (form: FormData) => {
    if (form.get("choice") === "blocks") {
      const document = emptyBlocksDocument();
      form.set("blocks", JSON.stringify(document));
      form.set("bodyHtml", blocksToLiquidHtml(document));
    }
    return submit(form);
  };

  return (
    <form action={create} className="space-y-6">
      <fieldset>
        <legend className="mb-3 text-sm font-medium text-slate-800">Start from</legend>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {options.map((option) => (
            <label
              key={option.value}
              data-testid="template-choice"
              className="block cursor-pointer space-y-2 rounded-lg border border-slate-200 bg-white p-3 shadow-sm has-[:checked]:border-indigo-500 has-[:checked]:ring-2 has-[:checked]:ring-indigo-500 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600"
            >
              <EmailThumbnail html={option.html} title={`Preview of ${option.name}`} />
              <span className="flex items-start gap-2">
                <input
                  type="radio"
                  name="choice"
                  value={option.value}
                  checked={choice === option.value}
                  onChange={() => setChoice(option.value)}
                  className="mt-1 accent-indigo-600"
                />
                <span>
                  <span className="block text-sm font-semibold text-slate-900">{option.name}</span>
                  <span className="block text-xs text-slate-600">{option.description}</span>
                </span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="max-w-md">
        <Field
          label="Template name"
          htmlFor="template-name"
          hint="Shown in the template list; you can change it in the editor."
          error={nameError}
        >
          <Input
            id="template-name"
            name="name"
            maxLength={TEMPLATE_NAME_MAX}
            defaultValue={state.values?.name}
            placeholder={chosen?.value.startsWith("starter:") ? chosen.name : BLANK_TEMPLATE_NAME}
            aria-invalid={Boolean(nameError)}
            aria-describedby={nameError ? "template-name-error" : undefined}
          />
        </Field>
      </div>
      {formError ? <FormMessage tone="error">{formError}</FormMessage> : null}
      <Button type="submit" disabled={pending}>
        {pending ? "Creating…" : "Create template"}
      </Button>
    </form>
  );
}
