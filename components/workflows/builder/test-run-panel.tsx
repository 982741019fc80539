"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormMessage, Textarea } from "@/components/ui/field";
import type { TestRunResult } from "@/lib/flows/workflows/builder.shared";
import {
  missingSampleVariables,
  parseSampleVariables,
  variablesSkeleton,
} from "@/lib/flows/workflows/builder-variables.shared";

const skeletonText = (paths: string[]) => JSON.stringify(variablesSkeleton(paths), null, 2);

/**
 * "Run as sandbox" with sample variables: a sandbox run of the saved workflow (messages stored, never
 * delivered), linked once it exists. Pre-filled with a skeleton of the variables the workflow needs.
 */
export function TestRunPanel({
  workflowId,
  needed,
  dirty,
  testRun,
}: {
  workflowId: string;
  needed: string[];
  dirty: boolean;
  testRun: (input: { id: string; variables: string }) => Promise<TestRunResult>;
}) {
  const [text, setText] = useState(() => skeletonText(needed));
  const [result, setResult] = useState<TestRunResult | null>(null);
  const [pending, startTransition] = useTransition();
  const parsed = parseSampleVariables(text);
  const localError = "error" in parsed ? parsed.error : null;
  const serverError = result && !result.ok ? result.error.message : null;
  const missing = "variables" in parsed ? missingSampleVariables(needed, parsed.variables) : [];

  const run = () =>
    startTransition(async () => {
      setResult(await testRun({ id: workflowId, variables: text }));
    });

  return (
    <div className="space-y-3">
      <Field
        label="Sample variables (JSON)"
        htmlFor="test-run-variables"
        error={localError ?? serverError}
        hint="The run's variables, as a caller would send them."
      >
        <Textarea
          id="test-run-variables"
          rows={8}
          value={text}
          spellCheck={false}
          aria-invalid={Boolean(localError ?? serverError)}
          onChange={(event) => setText(event.target.value)}
        />
      </Field>
      {missing.length > 0 && !localError ? (
        <p className="text-xs text-amber-800" data-testid="sample-missing">
          Missing from the sample (they would render empty): {missing.join(", ")}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={run} disabled={pending || dirty || Boolean(localError)}>
          {pending ? "Starting…" : "Run as sandbox"}
        </Button>
        <Button variant="secondary" onClick={() => setText(skeletonText(needed))}>
          Fill with the needed variables
        </Button>
      </div>
      {dirty ? (
        <p className="text-xs text-slate-600">Save your changes first: a test run uses the saved workflow.</p>
      ) : null}
      {result?.ok ? (
        <FormMessage tone="success">
          Sandbox run started ({result.status.toLowerCase()}).{" "}
          <Link href={`/workflow-runs/${result.runId}`} className="font-medium underline">
            Open run {result.runId}
          </Link>
        </FormMessage>
      ) : null}
    </div>
  );
}
