import "server-only";
import type { AuditActor } from "@/lib/records/audit/actor";
import { getTemplateOrThrow } from "./get-template-or-throw";
import { getTemplateVersionOrThrow } from "./get-template-version-or-throw";
import { updateTemplate } from "./update-template";

export interface RestoreTemplateVersionInput {
  workspaceId: string;
  templateId: string;
  version: number;
  userId: string | null;
  /** The current version the user was looking at; someone else's save in between is a CONFLICT. */
  baseVersion?: number;
  /** The field a CONFLICT names (updateTemplate's baseVersionParam). */
  baseVersionParam?: string;
  actor?: AuditActor;
}

/**
 * A save: the old content, its locale variants with it, becomes version N+1 "restored from vK"; nothing is lost, and
 * restoring the current one is allowed. A version saved before localisation has no variants: restoring it removes them.
 */
export async function restoreTemplateVersion(input: RestoreTemplateVersionInput) {
  const template = await getTemplateOrThrow(input.workspaceId, input.templateId, "templateId");
  const old = await getTemplateVersionOrThrow(input.workspaceId, template.id, input.version);
  return updateTemplate({
    workspaceId: input.workspaceId,
    templateId: template.id,
    userId: input.userId,
    baseVersion: input.baseVersion,
    baseVersionParam: input.baseVersionParam,
    actor: input.actor,
    restoredFromVersion: old.version,
    content: {
      name: old.name,
      subject: old.subject,
      bodyHtml: old.bodyHtml,
      bodyText: old.bodyText,
      fromAddress: old.fromAddress,
      replyTo: old.replyTo,
      strict: old.strict,
      kind: old.kind,
      blocks: old.blocks,
    },
    locales: { defaultLocale: old.defaultLocale, variants: old.locales },
  });
}
