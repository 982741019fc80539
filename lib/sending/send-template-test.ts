import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { memberships, users } from "@/db/schema/index";
import { AppError, invalidParameter, notFound } from "@/lib/foundation/errors";
import { queueTransaction } from "@/lib/records/queue/queue";
import { acceptMessages } from "@/lib/sending/accept-messages";
import type { EmailMessageRow } from "@/lib/domain/messages/get-message-or-throw";
import { parseSendDraft } from "@/lib/sending/parse-send-request";
import { prepareMessage } from "@/lib/sending/prepare-message";
import { zodToAppError } from "@/lib/foundation/validation.shared";
import { getWorkspaceOrThrow } from "@/lib/domain/workspaces/get-workspace-or-throw";
import { getTemplateOrThrowIn } from "@/lib/domain/templates/get-template-or-throw";
import { previewDraft, previewDraftSchema, type PreviewProblem } from "@/lib/domain/templates/preview-draft";

export type TemplateTestMode = "me" | "sandbox";

export interface SendTemplateTestInput {
  workspaceId: string;
  templateId: string;
  /** The signed-in member: the test goes to their own address, read from their membership. */
  userId: string;
  /** "me": a live message to that address; "sandbox": a sandbox message, never delivered. */
  mode: TemplateTestMode;
  /** The editor's draft and sample data, as POST /templates/preview takes them (unsaved edits included). */
  draft: unknown;
}

/**
 * Rendered by previewDraft, so the test is exactly what the preview showed, then sent through the send path.
 * A live test goes only to the member's own address, which test mode lets through.
 */
export async function sendTemplateTest(input: SendTemplateTestInput): Promise<EmailMessageRow> {
  if (input.mode !== "me" && input.mode !== "sandbox")
    throw invalidParameter("mode", 'mode must be "me" or "sandbox".');
  const db = await getDb();
  const template = await getTemplateOrThrowIn(db, input.workspaceId, input.templateId, "templateId");
  const email = await memberEmailOrThrow(db, input.workspaceId, input.userId);
  const draft = previewDraftSchema.safeParse(input.draft);
  if (!draft.success) throw zodToAppError(draft.error);
  const preview = previewDraft(draft.data);
  if (!preview.rendered) throw problemError(preview.problems[0]);
  const { rendered } = preview;
  if (!rendered.fromAddress) {
    throw new AppError(
      "EMAIL_MESSAGE_INVALID_SENDER_ERROR",
      "Set a default sender (From) for this template first: a test is sent from it.",
      { param: "fromAddress" },
    );
  }
  if (!rendered.subject)
    throw invalidParameter("subject", "The subject renders empty with this sample data; a message needs a subject.");
  if (!rendered.bodyHtml.trim())
    throw invalidParameter("bodyHtml", "The HTML body renders empty with this sample data.");
  const sandbox = input.mode === "sandbox";
  const prepared = await withEditorParams(async () => {
    const command = parseSendDraft({
      to: email,
      from: rendered.fromAddress ?? undefined,
      replyTo: rendered.replyTo || undefined,
      subject: rendered.subject,
      bodyHtml: rendered.bodyHtml,
      bodyText: rendered.bodyText ?? undefined,
      variables: draft.data.variables,
      metadata: { test: "template", templateId: template.id },
    });
    const workspace = await getWorkspaceOrThrow(db, input.workspaceId);
    return prepareMessage(db, command, { workspace, sandbox, source: "PREVIEW", submittedVia: "dashboard" });
  });
  const [message] = await queueTransaction((tx) => acceptMessages(tx, [{ ...prepared, templateId: template.id }]));
  return message;
}

async function memberEmailOrThrow(db: Executor, workspaceId: string, userId: string): Promise<string> {
  const [row] = await db
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)));
  if (!row) throw notFound(`Member ${userId}`, "userId");
  return row.email;
}

function problemError(problem: PreviewProblem): AppError {
  const where = problem.line ? ` (line ${problem.line}, column ${problem.column})` : "";
  return new AppError(
    "TEMPLATE_RENDER_ERROR",
    `The draft does not render: ${problem.field}${where}: ${problem.message}`,
    { param: problem.field },
  );
}

/** The send path names its own fields (`from`); the editor's sender field is `fromAddress`. */
async function withEditorParams<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && error.param === "from")
      throw new AppError(error.code, error.message, { param: "fromAddress" });
    throw error;
  }
}
