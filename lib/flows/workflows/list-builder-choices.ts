import "server-only";
import { and, asc, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templates } from "@/db/schema";
import { listUnsubscribeGroups } from "@/lib/domain/contacts/list-unsubscribe-groups";
import type { GroupChoice, TemplateChoice } from "./builder.shared";
import { safeVariables } from "./builder-variables.shared";

/** The picker lists this many templates by name; templates the workflow names are added beyond it. */
export const TEMPLATE_CHOICES_LIMIT = 500;

export interface BuilderChoices {
  templates: TemplateChoice[];
  /** More templates exist than the picker shows. */
  templatesTruncated: boolean;
  groups: GroupChoice[];
}

/**
 * Templates with the variables each uses (computed here, so the browser gets paths, not sources) and groups. The
 * workflow's own templates are always included; one missing from the answer was deleted.
 */
export async function listBuilderChoices(
  workspaceId: string,
  referencedTemplateIds: string[] = [],
): Promise<BuilderChoices> {
  const db = await getDb();
  const columns = {
    id: templates.id,
    name: templates.name,
    subject: templates.subject,
    bodyHtml: templates.bodyHtml,
    bodyText: templates.bodyText,
    fromAddress: templates.fromAddress,
    replyTo: templates.replyTo,
  };
  const listed = await db
    .select(columns)
    .from(templates)
    .where(eq(templates.workspaceId, workspaceId))
    .orderBy(asc(templates.name), asc(templates.id))
    .limit(TEMPLATE_CHOICES_LIMIT + 1);
  const shown = listed.slice(0, TEMPLATE_CHOICES_LIMIT);
  const extraIds = [...new Set(referencedTemplateIds)].filter((id) => !shown.some((row) => row.id === id));
  const extra = extraIds.length
    ? await db
        .select(columns)
        .from(templates)
        .where(and(eq(templates.workspaceId, workspaceId), inArray(templates.id, extraIds)))
    : [];
  const groups = await listUnsubscribeGroups(workspaceId);
  return {
    templates: [...shown, ...extra].map((row) => ({
      id: row.id,
      name: row.name,
      variables: safeVariables([
        row.subject,
        row.bodyHtml,
        row.bodyText ?? "",
        row.fromAddress ?? "",
        row.replyTo ?? "",
      ]),
    })),
    templatesTruncated: listed.length > TEMPLATE_CHOICES_LIMIT,
    groups: groups.map((group) => ({ key: group.key, name: group.name })),
  };
}
