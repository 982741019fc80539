import "server-only";
import type { AuditActor } from "@/lib/records/audit/actor";
import { getTemplateOrThrow } from "./get-template-or-throw";
import { getTemplateVersionOrThrow } from "./get-template-version-or-throw";
import { updateTemplate } from "./update-template";

export interface RestoreTemplateVersionInput {
  workspaceId: string;
  templateId: string;
  /** The version whose content becomes current again. */
  version: number;
  userId: string | null;
  /** The current version the user was looking at; someone else's save in between is a CONFLICT. */
  baseVersion?: number;
  /** The field a CONFLICT names (updateTemplate's baseVersionParam). */
  baseVersionParam?: string;
  /** Audited as (`template.restore`); absent: the user of `userId`, else the system. */
  actor?: AuditActor;
}

/**
 * Restoring is a save: the old version's content (name, subject, bodies, sender fields, strict, kind and
 * blocks) becomes a new version N+1 marked "restored from vK". Nothing is lost; the versions in between
 * stay in the history and can be restored the same way. Restoring the current version is allowed: it
 * saves the same content again (a marker in the history, e.g. before a risky edit).
 */
export async function restoreTemplateVersion(input: RestoreTemplateVersionInput) {
  const template = await getTemplateOrThrow(input.workspaceId, input.templateId, undefined, "templateId");
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
  });
}
