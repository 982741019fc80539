"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/action-state.shared";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Input, Select } from "@/components/ui/field";

type Action = (previous: FormState, form: FormData) => Promise<FormState>;

/** A route as the form edits it: the pattern, each kind of action as its own field, and the policies. */
export interface RouteFormValues {
  id?: string;
  name: string;
  pattern: string;
  webhook: boolean;
  forwardTo: string;
  workflowId: string;
  /** The `dmarc` action: attachments read as DMARC aggregate reports (docs/deliverability.md#dmarc-reports). */
  dmarcReports: boolean;
  rejectCode: string;
  rejectMessage: string;
  dmarcFailAction: string;
  spamThreshold: string;
  spamAction: string;
  enabled: boolean;
}

const EMPTY: RouteFormValues = {
  name: "",
  pattern: "",
  webhook: true,
  forwardTo: "",
  workflowId: "",
  dmarcReports: false,
  rejectCode: "",
  rejectMessage: "",
  dmarcFailAction: "accept",
  spamThreshold: "",
  spamAction: "quarantine",
  enabled: true,
};

/**
 * Add or edit a route. Storing always happens; the webhook, forward, workflow and DMARC reports run in that order; a
 * reject code refuses the mail at RCPT TO instead. The server checks everything again and names the field at fault.
 */
export function RouteForm({
  action,
  domainId,
  domainName,
  workflows,
  route,
}: {
  action: Action;
  domainId: string;
  domainName: string;
  workflows: Array<{ id: string; name: string }>;
  route?: RouteFormValues;
}) {
  const [state, submit, pending] = useActionState(action, {});
  // After a refusal the form shows what was typed (React resets a form after its action), else the route as saved.
  const values = shownValues(state.ok === false ? state.values : undefined, route);
  const key = route?.id ?? "new";
  const id = (name: string) => `route-${key}-${name}`;
  const errorFor = (...fields: string[]) =>
    state.error && state.field && fields.some((field) => state.field!.startsWith(field)) ? state.error : null;
  const known = ["pattern", "name", "actions", "dmarcFailAction", "spamThreshold", "spamAction"];
  const formError = state.error && !(state.field && known.some((f) => state.field!.startsWith(f))) ? state.error : null;
  return (
    <form action={submit} className="space-y-3" aria-label={route ? `Edit route ${route.pattern}` : "Add a route"}>
      <input type="hidden" name="inboundDomainId" value={domainId} />
      {route?.id ? <input type="hidden" name="routeId" value={route.id} /> : null}
      {formError ? <FormMessage tone="error">{formError}</FormMessage> : null}
      {state.ok && state.message ? <FormMessage tone="success">{state.message}</FormMessage> : null}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Field
          label="Recipient pattern"
          htmlFor={id("pattern")}
          hint={`support@${domainName}, support+{hash}@${domainName} or *@${domainName}`}
          error={errorFor("pattern")}
        >
          <Input
            id={id("pattern")}
            name="pattern"
            required
            autoCapitalize="none"
            spellCheck={false}
            placeholder={`support@${domainName}`}
            defaultValue={values.pattern}
          />
        </Field>
        <Field label="Name (optional)" htmlFor={id("name")} error={errorFor("name")}>
          <Input id={id("name")} name="name" defaultValue={values.name} placeholder="Support desk" />
        </Field>
      </div>
      <RouteActionFields values={values} id={id} actionsError={errorFor("actions")} workflows={workflows} />
      <RoutePolicyFields values={values} id={id} errorFor={errorFor} />
      <div className="flex flex-wrap items-center gap-3">
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" name="enabled" value="on" defaultChecked={values.enabled} />
          Enabled
        </label>
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : route ? "Save route" : "Add route"}
        </Button>
      </div>
    </form>
  );
}

/** One field per kind of action, in the order they run; a refusal code instead makes the route a reject route alone. */
function RouteActionFields({
  values,
  id,
  actionsError,
  workflows,
}: {
  values: RouteFormValues;
  id: (name: string) => string;
  actionsError: string | null;
  workflows: Array<{ id: string; name: string }>;
}) {
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-sm font-medium text-slate-800">Actions, in order (the mail is always stored)</legend>
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" name="webhook" value="on" defaultChecked={values.webhook} />
        Send the email.received webhook
      </label>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Field label="Forward to" htmlFor={id("forwardTo")} hint="Sent through our own delivery" error={actionsError}>
          <Input id={id("forwardTo")} name="forwardTo" type="email" defaultValue={values.forwardTo} />
        </Field>
        <Field label="Start a workflow" htmlFor={id("workflowId")}>
          <Select id={id("workflowId")} name="workflowId" defaultValue={values.workflowId}>
            <option value="">No workflow</option>
            {workflows.map((workflow) => (
              <option key={workflow.id} value={workflow.id}>
                {workflow.name}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <div>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            name="dmarcReports"
            value="on"
            defaultChecked={values.dmarcReports}
            aria-describedby={id("dmarcReports-hint")}
          />
          Store DMARC reports
        </label>
        <p id={id("dmarcReports-hint")} className="mt-0.5 pl-6 text-xs text-slate-500">
          Reads the attachments as DMARC aggregate reports for your sending domains, shown on each domain&apos;s page.
          Name this address in the domain&apos;s DMARC record (rua=).
        </p>
      </div>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Field label="Or refuse with SMTP code" htmlFor={id("rejectCode")} hint="e.g. 550; empty: accept">
          <Input id={id("rejectCode")} name="rejectCode" inputMode="numeric" defaultValue={values.rejectCode} />
        </Field>
        <Field label="Refusal text" htmlFor={id("rejectMessage")}>
          <Input id={id("rejectMessage")} name="rejectMessage" defaultValue={values.rejectMessage} />
        </Field>
      </div>
    </fieldset>
  );
}

/** What the form shows: after a refusal what was typed (a ticked checkbox is "on"), else the route or the defaults. */
function shownValues(typed: Record<string, string> | undefined, route: RouteFormValues | undefined): RouteFormValues {
  if (!typed) return { ...EMPTY, ...route };
  const checked = (name: string) => typed[name] === "on";
  return {
    ...EMPTY,
    ...typed,
    webhook: checked("webhook"),
    dmarcReports: checked("dmarcReports"),
    enabled: checked("enabled"),
  };
}

/** What happens to mail failing DMARC or scoring as spam: accepted, quarantined or refused. */
function RoutePolicyFields({
  values,
  id,
  errorFor,
}: {
  values: RouteFormValues;
  id: (name: string) => string;
  errorFor: (...fields: string[]) => string | null;
}) {
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
      <Field label="When DMARC fails" htmlFor={id("dmarcFailAction")} error={errorFor("dmarcFailAction")}>
        <Select id={id("dmarcFailAction")} name="dmarcFailAction" defaultValue={values.dmarcFailAction}>
          <option value="accept">Accept it</option>
          <option value="quarantine">Quarantine it</option>
          <option value="reject">Refuse it</option>
        </Select>
      </Field>
      <Field
        label="Spam score above"
        htmlFor={id("spamThreshold")}
        hint="Empty: no limit"
        error={errorFor("spamThreshold")}
      >
        <Input id={id("spamThreshold")} name="spamThreshold" inputMode="decimal" defaultValue={values.spamThreshold} />
      </Field>
      <Field label="Then" htmlFor={id("spamAction")} error={errorFor("spamAction")}>
        <Select id={id("spamAction")} name="spamAction" defaultValue={values.spamAction}>
          <option value="quarantine">Quarantine it</option>
          <option value="reject">Refuse it</option>
        </Select>
      </Field>
    </div>
  );
}
