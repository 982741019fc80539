"use client";

import { useRouter } from "next/navigation";
import { useMemo, useRef, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import {
  definitionFromDraft,
  workflowErrors,
  type FieldError,
  type GroupChoice,
  type SaveWorkflowResult,
  type StepDraft,
  type TemplateChoice,
  type TestRunResult,
  type WorkflowDraft,
} from "@/lib/flows/workflows/builder.shared";
import { workflowVariables } from "@/lib/flows/workflows/builder-variables.shared";
import { SaveStatus } from "./save-status";
import { StepList } from "./step-list";
import { TestRunPanel } from "./test-run-panel";
import { VariableList } from "./variable-list";
import { WorkflowSettings } from "./workflow-settings";

export interface WorkflowBuilderProps {
  /** Null on /workflows/new: the first save creates it and continues on its page. */
  workflowId: string | null;
  initial: WorkflowDraft;
  templates: TemplateChoice[];
  groups: GroupChoice[];
  save: (input: { id: string | null; definition: unknown }) => Promise<SaveWorkflowResult>;
  testRun: (input: { id: string; variables: string }) => Promise<TestRunResult>;
  /** Shown once after the redirect from /workflows/new. */
  notice?: string;
}

/**
 * The workflow builder: the draft lives here (client state), the server validates on save and its
 * problems are shown next to the step and field they name (`steps[2].to`).
 */
export function WorkflowBuilder({
  workflowId,
  initial,
  templates,
  groups,
  save,
  testRun,
  notice,
}: WorkflowBuilderProps) {
  const router = useRouter();
  const [draft, setDraft] = useState(initial);
  const [savedJson, setSavedJson] = useState(() => JSON.stringify(definitionFromDraft(initial)));
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [saved, setSaved] = useState<string | null>(notice ?? null);
  const [pending, startTransition] = useTransition();
  const nextUid = useRef(0);
  const uid = () => `new-${nextUid.current++}`;

  const variablesOf = useMemo(() => {
    const byId = new Map(templates.map((template) => [template.id, template.variables]));
    return (templateId: string) => byId.get(templateId) ?? [];
  }, [templates]);
  const needed = workflowVariables(draft.steps, variablesOf);
  const definition = definitionFromDraft(draft);
  const dirty = JSON.stringify(definition) !== savedJson;
  const general = workflowErrors(errors);

  const edit = (next: WorkflowDraft) => {
    setDraft(next);
    setSaved(null);
  };
  const setSteps = (steps: StepDraft[]) => edit({ ...draft, steps });

  const onSave = () =>
    startTransition(async () => {
      const result = await save({ id: workflowId, definition });
      // A created workflow redirects to its page: nothing comes back.
      if (!result) return;
      if (!result.ok) {
        setErrors(result.errors);
        return;
      }
      setErrors([]);
      setSavedJson(JSON.stringify(definition));
      setSaved("Saved. Runs started from now on use these steps; runs already started keep theirs.");
      router.refresh();
    });

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="space-y-6">
        <Card title="Workflow" id="workflow">
          <WorkflowSettings draft={draft} errors={general} onChange={(patch) => edit({ ...draft, ...patch })} />
        </Card>
        <Card
          title="Steps"
          id="steps"
          description="Run in order, top to bottom. At least one sends an email; the last is not a wait."
        >
          {general.steps ? <p className="mb-3 text-xs text-red-600">{general.steps}</p> : null}
          <StepList
            steps={draft.steps}
            errors={errors}
            templates={templates}
            groups={groups}
            newUid={uid}
            onChange={setSteps}
            onErrorsStale={() => setErrors([])}
          />
        </Card>
        <div className="space-y-3">
          <SaveStatus errors={errors} saved={saved} />
          <div className="flex items-center gap-3">
            <Button onClick={onSave} disabled={pending}>
              {pending ? "Saving…" : workflowId ? "Save workflow" : "Create workflow"}
            </Button>
            {dirty ? <span className="text-xs text-slate-500">Unsaved changes</span> : null}
          </div>
        </div>
      </div>
      <div className="space-y-6">
        <Card
          title="Variables this workflow needs"
          id="variables"
          description="Every send step's template and address fields, together."
        >
          <VariableList paths={needed} label="Variables this workflow needs" />
        </Card>
        {workflowId ? (
          <Card
            title="Test run"
            id="test-run"
            description="A sandbox run: messages are stored, never delivered. Waits take their real time."
          >
            <TestRunPanel workflowId={workflowId} needed={needed} dirty={dirty} testRun={testRun} />
          </Card>
        ) : (
          <Card title="Test run" id="test-run">
            <p className="text-sm text-slate-600">
              Create the workflow first; then run it here as a sandbox run with sample variables.
            </p>
          </Card>
        )}
      </div>
    </div>
  );
}
