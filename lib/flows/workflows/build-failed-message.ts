import "server-only";
import type { Executor } from "@/db/client";
import type { MessageSource, WorkflowStep } from "@/db/schema";
import { AppError } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import type { PreparedMessage } from "@/lib/sending/prepare-message";
import { parseAddressList } from "@/lib/foundation/addresses/recipients.shared";
import { getTemplateOrThrowIn } from "@/lib/domain/templates/get-template-or-throw";
import { renderLine, renderTemplate } from "@/lib/domain/templates/render.shared";
import type { RenderedAddressFields } from "./prepare-email-step";

type SendEmailStep = Extract<WorkflowStep, { type: "sendEmail" }>;

/**
 * A step that failed a check knowable only when it runs is recorded on a FAILED message (docs/api.md#decided-errors),
 * built from what is known. Null when the template is gone or does not render.
 */
export async function buildFailedMessage(
  db: Executor,
  run: { workspaceId: string; sandbox: boolean; variables: Record<string, unknown>; tags: string[] },
  step: SendEmailStep,
  fields: RenderedAddressFields,
): Promise<PreparedMessage | null> {
  const template = await getTemplateOrThrowIn(db, run.workspaceId, step.templateId).catch(ignoreAppError);
  if (!template) return null;
  const options = { strict: template.strict };
  let content;
  try {
    content = renderTemplate(template, run.variables, options);
  } catch (error) {
    return ignoreAppError(error);
  }
  let from = fields.from ?? "";
  if (!from && template.fromAddress) {
    try {
      from = renderLine(template.fromAddress, run.variables, "from", options);
    } catch (error) {
      ignoreAppError(error);
    }
  }
  return {
    id: newId("message"),
    workspaceId: run.workspaceId,
    source: (run.sandbox ? "SANDBOX_WORKFLOW" : "WORKFLOW") satisfies MessageSource,
    sandbox: run.sandbox,
    templateId: template.id,
    scheduledAt: null,
    groupId: null,
    variables: run.variables,
    to: entries(fields.to),
    toAddresses: [],
    cc: entries(fields.cc),
    bcc: entries(fields.bcc),
    from,
    replyTo: fields.replyTo ?? null,
    subject: content.subject,
    bodyHtml: content.bodyHtml,
    bodyText: content.bodyText,
    headers: {},
    attachments: [],
    metaId: null,
    metadata: {},
    tags: run.tags,
    contacts: [],
    renderedFrom: from,
  };
}

/** The entries as rendered: parsed where they parse, else the whole string as one entry. */
function entries(value: string | undefined): string[] {
  if (!value) return [];
  try {
    return parseAddressList(value, "to").map((recipient) => recipient.entry);
  } catch {
    return [value];
  }
}

function ignoreAppError(error: unknown): null {
  if (error instanceof AppError) return null;
  throw error;
}
