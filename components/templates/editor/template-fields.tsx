"use client";

import Link from "next/link";
import { memo, type Ref } from "react";
import { Field, Input } from "@/components/ui/field";
import { CodeEditor, type CodeEditorHandle, type EditorProblem } from "./code-editor";
import type { Draft } from "./types";

export interface TemplateFieldsProps {
  draft: Pick<Draft, "name" | "subject" | "fromAddress" | "replyTo" | "strict">;
  update: <K extends keyof Draft>(field: K, value: Draft[K]) => void;
  /** Render problems of the one-line fields, and a save error's field. */
  problems: { subject: EditorProblem[]; fromAddress: string | null; replyTo: string | null };
  saveError: { param?: string; text: string } | null;
  subjectRef: Ref<CodeEditorHandle>;
  onSave: () => void;
  /** The workspace's sender on its first verified domain; null when it has none (then no From can work yet). */
  defaultSender: string | null;
}

const errorFor = (saveError: TemplateFieldsProps["saveError"], param: string) =>
  saveError?.param === param ? saveError.text : null;

/** Name, subject (Liquid, one line), default sender and reply-to (Liquid allowed), strict mode. */
export const TemplateFields = memo(function TemplateFields({
  draft,
  update,
  problems,
  saveError,
  subjectRef,
  onSave,
  defaultSender,
}: TemplateFieldsProps) {
  return (
    <div className="space-y-4">
      <Field
        label="Name"
        htmlFor="template-name"
        error={errorFor(saveError, "name")}
        hint="Only for you and your team; recipients never see it."
      >
        <Input
          id="template-name"
          value={draft.name}
          maxLength={200}
          onChange={(event) => update("name", event.target.value)}
          aria-invalid={saveError?.param === "name" || undefined}
        />
      </Field>
      <div className="space-y-1">
        <span id="template-subject-label" className="block text-sm font-medium text-slate-800">
          Subject
        </span>
        <CodeEditor
          ref={subjectRef}
          value={draft.subject}
          onChange={(value) => update("subject", value)}
          language="liquid"
          singleLine
          label="Subject"
          problems={problems.subject}
          onSave={onSave}
        />
        {errorFor(saveError, "subject") ? (
          <p className="text-xs text-red-600">{errorFor(saveError, "subject")}</p>
        ) : null}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Default sender (From)"
          htmlFor="template-from"
          error={problems.fromAddress ?? errorFor(saveError, "fromAddress")}
          hint={fromHint(draft.fromAddress, defaultSender)}
        >
          <Input
            id="template-from"
            value={draft.fromAddress}
            placeholder="Acme <hello@example.com>"
            className="font-mono text-xs"
            onChange={(event) => update("fromAddress", event.target.value)}
            aria-invalid={Boolean(problems.fromAddress) || undefined}
          />
        </Field>
        <Field
          label="Reply-to"
          htmlFor="template-reply-to"
          error={problems.replyTo ?? errorFor(saveError, "replyTo")}
          hint="Optional. Liquid allowed."
        >
          <Input
            id="template-reply-to"
            value={draft.replyTo}
            placeholder="support@example.com"
            className="font-mono text-xs"
            onChange={(event) => update("replyTo", event.target.value)}
            aria-invalid={Boolean(problems.replyTo) || undefined}
          />
        </Field>
      </div>
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          className="mt-0.5 size-4 rounded border-slate-300 text-indigo-600"
          checked={draft.strict}
          onChange={(event) => update("strict", event.target.checked)}
        />
        <span>
          <span className="font-medium">Strict variables</span>
          <span className="block text-xs text-slate-500">
            A variable missing from the data is an error instead of rendering as nothing (sends fail rather than go out
            with blanks).
          </span>
        </span>
      </label>
    </div>
  );
});

/** An empty From is why a first "Send to me" fails: say so, and what would work (or why nothing can yet). */
function fromHint(fromAddress: string, defaultSender: string | null) {
  if (fromAddress.trim()) return "Used when a send gives no from. Liquid allowed.";
  if (!defaultSender) {
    return (
      <span data-testid="from-hint">
        “Send to me” needs a From on a verified domain, and this workspace has none yet: add and verify one under{" "}
        <Link href="/domains" className="text-indigo-600 underline">
          Domains
        </Link>
        .
      </span>
    );
  }
  return <span data-testid="from-hint">“Send to me” needs a From, e.g. {defaultSender}.</span>;
}
