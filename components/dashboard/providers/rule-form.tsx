"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Input } from "@/components/ui/field";
import { FAMILY_NAMES, type MailboxFamily } from "./words";

type Action = (previous: FormState, form: FormData) => Promise<FormState>;

/** The field a refusal names: `match.recipientDomains[0]` → recipientDomains. */
function fieldOf(param?: string): string | undefined {
  const [first, second] = param?.split(/[.[]/) ?? [];
  return first === "match" ? second : first;
}

const LISTS = [
  {
    field: "recipientDomains",
    label: "Recipient domains (optional)",
    hint: "Comma separated; every recipient must be at one of them. *.example.com matches subdomains.",
    placeholder: "example.de, *.example.at",
  },
  {
    field: "senderDomains",
    label: "Sender domains (optional)",
    hint: "Comma separated: the From address's domain.",
    placeholder: "news.example.com",
  },
  {
    field: "streams",
    label: "Streams (optional)",
    hint: "Comma separated: a message's stream:… tag; without one it is transactional.",
    placeholder: "bulk",
  },
] as const;

type ErrorOf = (name: string) => string | null;

function ListFields({ values, errorOf }: { values?: Record<string, string>; errorOf: ErrorOf }) {
  return LISTS.map((list) => (
    <Field
      key={list.field}
      label={list.label}
      htmlFor={`new-rule-${list.field}`}
      hint={list.hint}
      error={errorOf(list.field)}
    >
      <Input
        id={`new-rule-${list.field}`}
        name={list.field}
        autoCapitalize="none"
        spellCheck={false}
        placeholder={list.placeholder}
        defaultValue={values?.[list.field]}
        aria-invalid={Boolean(errorOf(list.field))}
      />
    </Field>
  ));
}

function FamilyFields({
  families,
  checked,
  error,
}: {
  families: readonly MailboxFamily[];
  checked: Set<string>;
  error: string | null;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-800">
        Mailbox families (optional): every recipient&apos;s mailbox is at one of them
      </legend>
      <div className="grid gap-1 sm:grid-cols-2">
        {families.map((family) => (
          <label key={family} className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" name="mailboxFamilies" value={family} defaultChecked={checked.has(family)} />
            <span>
              <code className="font-mono text-xs">{family}</code>: {FAMILY_NAMES[family]}
            </span>
          </label>
        ))}
      </div>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
    </fieldset>
  );
}

/** A rule after the last one: name, what it matches (every field given must match), its connections in order. */
export function RuleForm({
  families,
  connectionNames,
  action,
}: {
  families: readonly MailboxFamily[];
  connectionNames: string[];
  action: Action;
}) {
  const [state, submit, pending] = useActionState(action, {});
  const values = state.ok ? undefined : state.values;
  const field = fieldOf(state.field);
  const errorOf: ErrorOf = (name) => (state.error && field === name ? state.error : null);
  const shown = ["name", "connections", "mailboxFamilies", ...LISTS.map((list) => list.field)];
  const checked = new Set((values?.mailboxFamilies ?? "").split(","));
  return (
    <form action={submit} className="space-y-4" data-testid="rule-form">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name (optional)" htmlFor="new-rule-name" hint="A label for people." error={errorOf("name")}>
          <Input id="new-rule-name" name="name" maxLength={200} defaultValue={values?.name} />
        </Field>
        <Field
          label="Connections"
          htmlFor="new-rule-connections"
          hint={`Comma separated, the primary first, then the fallbacks in order. Known: ${connectionNames.join(", ")}.`}
          error={errorOf("connections")}
        >
          <Input
            id="new-rule-connections"
            name="connections"
            required
            autoCapitalize="none"
            spellCheck={false}
            placeholder="eu-relay, default"
            defaultValue={values?.connections}
            aria-invalid={Boolean(errorOf("connections"))}
            aria-describedby={errorOf("connections") ? "new-rule-connections-error" : undefined}
          />
        </Field>
        <ListFields values={values} errorOf={errorOf} />
      </div>
      <FamilyFields families={families} checked={checked} error={errorOf("mailboxFamilies")} />
      {state.error && !(field && shown.includes(field)) ? (
        <FormMessage tone="error">{state.field ? `${state.field}: ${state.error}` : state.error}</FormMessage>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Adding…" : "Add rule"}
        </Button>
        {state.ok && state.message ? <FormMessage tone="success">{state.message}</FormMessage> : null}
      </div>
    </form>
  );
}
