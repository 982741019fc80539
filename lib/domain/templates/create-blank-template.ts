import "server-only";
import { defaultSenderFor } from "@/lib/domain/domains/default-sender";
import { invalidParameter } from "@/lib/foundation/errors";
import { zodToAppError } from "@/lib/foundation/validation.shared";
import { BLANK_CODE_BODY_HTML, BLANK_SUBJECT, BLANK_TEMPLATE_NAME } from "./blank.shared";
import { createTemplate } from "./create-template";
import { templateContentSchema } from "./schemas";

export type BlankTemplateInput =
  | { workspaceId: string; userId: string | null; name?: string | null; kind: "code" }
  /** The browser compiles the block document to bodyHtml (server code cannot render it, blocks.shared.ts). */
  | {
      workspaceId: string;
      userId: string | null;
      name?: string | null;
      kind: "blocks";
      bodyHtml: string;
      blocks: unknown;
    };

/** A new template from the blank code skeleton or the blank block document, as version 1, From the workspace's default sender. */
export async function createBlankTemplate(input: BlankTemplateInput) {
  const isBlocks = input.kind === "blocks";
  if (isBlocks && (typeof input.blocks !== "object" || input.blocks === null || !("root" in input.blocks))) {
    throw invalidParameter("blocks", "Invalid blocks: a block document with a root block is required.");
  }
  const parsed = templateContentSchema.safeParse({
    name: input.name?.trim() || BLANK_TEMPLATE_NAME,
    subject: BLANK_SUBJECT,
    bodyHtml: isBlocks ? input.bodyHtml : BLANK_CODE_BODY_HTML,
    kind: input.kind,
    blocks: isBlocks ? input.blocks : null,
  });
  if (!parsed.success) throw zodToAppError(parsed.error);
  if (isBlocks && parsed.data.bodyHtml.trim() === "")
    throw invalidParameter("bodyHtml", "Invalid bodyHtml: the compiled HTML of the block document is required.");
  const fromAddress = parsed.data.fromAddress || (await defaultSenderFor(input.workspaceId));
  return createTemplate({ workspaceId: input.workspaceId, userId: input.userId, ...parsed.data, fromAddress });
}
