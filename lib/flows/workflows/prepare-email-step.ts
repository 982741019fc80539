import "server-only";
import type { Executor } from "@/db/client";
import type { WorkflowStep } from "@/db/schema";
import { AppError, type ErrorCode } from "@/lib/foundation/errors";
import type { EventCode } from "@/lib/records/timeline/event-codes.shared";
import { parseSendDraft } from "@/lib/sending/parse-send-request";
import { prepareMessage, type PreparedMessage } from "@/lib/sending/prepare-message";
import { renderLine } from "@/lib/domain/templates/render.shared";
import { getWorkspaceOrThrow } from "@/lib/domain/workspaces/get-workspace-or-throw";
import { buildFailedMessage } from "./build-failed-message";
import { STEP_LOCALE_CONTACT } from "./schemas";

type SendEmailStep = Extract<WorkflowStep, { type: "sendEmail" }>;

/** What a step leads to; written by run-workflow-step.ts in one transaction. */
export interface StepOutcome {
  /** The message to create; when `failure.code` is set it is created and then FAILED with that event. */
  message: PreparedMessage | null;
  /** Set when the step failed: the run ends FAILED with `reason`, later steps are not run. */
  failure: { reason: string; code: EventCode | null } | null;
}

export type RenderedAddressFields = Partial<Record<(typeof ADDRESS_FIELDS)[number], string>>;

const ADDRESS_FIELDS = ["to", "cc", "bcc", "from", "replyTo"] as const;

/** The errors a message can carry on its timeline (the same codes as the request path's). */
const MESSAGE_ERRORS: Partial<Record<ErrorCode, EventCode>> = {
  EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR: "EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR",
  EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR: "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR",
  EMAIL_MESSAGE_INVALID_SENDER_ERROR: "EMAIL_MESSAGE_INVALID_SENDER_ERROR",
  EMAIL_MESSAGE_INVALID_TEST_MODE_RECIPIENT_ERROR: "EMAIL_MESSAGE_INVALID_TEST_MODE_RECIPIENT_ERROR",
  EMAIL_MESSAGE_INVALID_PARAMETER_ERROR: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
};

/**
 * A sendEmail step but its writes: render the address fields (leniently) with the run's variables, then the same checks
 * as POST /v1/email_messages. A failed check is recorded on a FAILED message where one can be built.
 */
export async function prepareEmailStep(db: Executor, run: StepRun, index: number): Promise<StepOutcome> {
  const step = run.steps[index] as SendEmailStep;
  const label = `Step ${index + 1} (sendEmail)`;
  let fields: RenderedAddressFields;
  let locale: string | undefined;
  try {
    fields = renderAddressFields(step, run.variables);
    locale = stepLocale(step, run.variables);
  } catch (error) {
    if (error instanceof AppError)
      return { message: null, failure: { reason: `${label}: ${error.message}`, code: null } };
    throw error;
  }
  try {
    const workspace = await getWorkspaceOrThrow(db, run.workspaceId);
    const command = parseSendDraft({
      templateId: step.templateId,
      ...fields,
      groupKey: step.groupKey,
      locale,
      variables: run.variables,
      tags: run.tags,
    });
    const source = run.sandbox ? "SANDBOX_WORKFLOW" : "WORKFLOW";
    return { message: await prepareMessage(db, command, { workspace, sandbox: run.sandbox, source }), failure: null };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const reason = `${label}: ${explain(error, step)}`;
    // An unsubscribe group deleted since the workflow was made is a bad parameter of this message.
    const code =
      error.code === "NOT_FOUND" && error.param === "groupKey"
        ? "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR"
        : MESSAGE_ERRORS[error.code];
    const message = code ? await buildFailedMessage(db, run, step, fields) : null;
    return { message, failure: { reason, code: message ? code! : null } };
  }
}

export interface StepRun {
  workspaceId: string;
  sandbox: boolean;
  variables: Record<string, unknown>;
  /** The trigger's tags, on every message of the run. */
  tags: string[];
  steps: WorkflowStep[];
}

function renderAddressFields(step: SendEmailStep, variables: Record<string, unknown>): RenderedAddressFields {
  const fields: RenderedAddressFields = {};
  for (const field of ADDRESS_FIELDS) {
    const source = step[field];
    if (source === undefined) continue;
    const value = renderLine(source, variables, field);
    if (value !== "") fields[field] = value;
  }
  return fields;
}

/** The step's locale: fixed, Liquid, "contact" (none: the contact's), else the run's variables.locale. */
function stepLocale(step: SendEmailStep, variables: Record<string, unknown>): string | undefined {
  if (step.locale === STEP_LOCALE_CONTACT) return undefined;
  if (step.locale !== undefined) return renderLine(step.locale, variables, "locale") || undefined;
  const fromRun = variables.locale;
  return typeof fromRun === "string" && fromRun.trim() !== "" ? fromRun : undefined;
}

function explain(error: AppError, step: SendEmailStep): string {
  if (error.code === "EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR") {
    return `to ${JSON.stringify(step.to)} rendered with the run's variables holds no address.`;
  }
  if (error.code === "NOT_FOUND" && error.param === "templateId")
    return `${error.message} It was deleted after the workflow was made.`;
  return error.message;
}
