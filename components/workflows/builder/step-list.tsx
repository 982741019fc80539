import { Button } from "@/components/ui/button";
import {
  moveStep,
  newSendStep,
  newWaitStep,
  stepErrors,
  type FieldError,
  type GroupChoice,
  type StepDraft,
  type TemplateChoice,
} from "@/lib/flows/workflows/builder.shared";
import { SendEmailStep } from "./send-email-step";
import { StepCard } from "./step-card";
import { WaitStep } from "./wait-step";

/**
 * The ordered steps with add, move and remove. Moving or removing a step clears the server's errors:
 * their `steps[i]` paths would point at the wrong step afterwards.
 */
export function StepList({
  steps,
  errors,
  templates,
  groups,
  newUid,
  onChange,
  onErrorsStale,
}: {
  steps: StepDraft[];
  errors: FieldError[];
  templates: TemplateChoice[];
  groups: GroupChoice[];
  newUid: () => string;
  onChange: (steps: StepDraft[]) => void;
  onErrorsStale: () => void;
}) {
  const patch = (index: number, change: Partial<StepDraft>) =>
    onChange(steps.map((step, i) => (i === index ? ({ ...step, ...change } as StepDraft) : step)));
  const reorder = (next: StepDraft[]) => {
    onChange(next);
    onErrorsStale();
  };
  return (
    <>
      <ol className="space-y-3">
        {steps.map((step, index) => {
          const errorsOfStep = stepErrors(errors, index);
          return (
            <StepCard
              key={step.uid}
              index={index}
              count={steps.length}
              kind={step.type === "wait" ? "Wait" : "Send email"}
              error={errorsOfStep[""] ?? errorsOfStep.type}
              onMove={(delta) => reorder(moveStep(steps, index, delta))}
              onRemove={() => reorder(steps.filter((_, i) => i !== index))}
            >
              {step.type === "wait" ? (
                <WaitStep step={step} errors={errorsOfStep} onChange={(change) => patch(index, change)} />
              ) : (
                <SendEmailStep
                  step={step}
                  templates={templates}
                  groups={groups}
                  errors={errorsOfStep}
                  onChange={(change) => patch(index, change)}
                />
              )}
            </StepCard>
          );
        })}
      </ol>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => onChange([...steps, newSendStep(newUid(), templates[0]?.id ?? "")])}>
          + Send email
        </Button>
        <Button variant="secondary" onClick={() => onChange([...steps, newWaitStep(newUid())])}>
          + Wait
        </Button>
      </div>
    </>
  );
}
