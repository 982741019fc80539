import "server-only";
import { asc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templateScenarios } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { createTemplateIn } from "./create-template";
import { getTemplateOrThrowIn } from "./get-template-or-throw";
import { TEMPLATE_NAME_MAX } from "./schemas";
import { readTemplateLocales } from "./template-locale-rows";

const COPY_SUFFIX = " (copy)";

/** "<name> (copy)" with copies of its locale variants and scenarios; the copy's history starts at version 1. */
export async function duplicateTemplate(input: { workspaceId: string; templateId: string; userId: string | null }) {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const source = await getTemplateOrThrowIn(tx, input.workspaceId, input.templateId, "templateId");
    const copy = await createTemplateIn(tx, {
      workspaceId: input.workspaceId,
      name: source.name.slice(0, TEMPLATE_NAME_MAX - COPY_SUFFIX.length) + COPY_SUFFIX,
      subject: source.subject,
      bodyHtml: source.bodyHtml,
      bodyText: source.bodyText,
      fromAddress: source.fromAddress,
      replyTo: source.replyTo,
      strict: source.strict,
      kind: source.kind,
      blocks: source.blocks,
      userId: input.userId,
      locales: { defaultLocale: source.defaultLocale, variants: await readTemplateLocales(tx, source.id) },
    });
    const scenarios = await tx
      .select({ name: templateScenarios.name, variables: templateScenarios.variables })
      .from(templateScenarios)
      .where(eq(templateScenarios.templateId, source.id))
      .orderBy(asc(templateScenarios.createdAt), asc(templateScenarios.id));
    if (scenarios.length > 0) {
      await tx.insert(templateScenarios).values(
        scenarios.map((scenario) => ({
          id: newId("templateScenario"),
          workspaceId: input.workspaceId,
          templateId: copy.id,
          name: scenario.name,
          variables: scenario.variables,
        })),
      );
    }
    return copy;
  });
}
