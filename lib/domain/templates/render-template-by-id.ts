import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import { templates } from "@/db/schema";
import { env } from "@/lib/foundation/env";
import { invalidParameter, notFound } from "@/lib/foundation/errors";
import { isPlainObject } from "@/lib/foundation/validation.shared";
import { compiledVersion } from "./compiled-versions";
import { getTemplateOrThrow } from "./get-template-or-throw";
import { renderCompiled, renderTemplate, type RenderedEmail, type TemplateSource } from "./render.shared";

/**
 * As a send would render it: a prepared read of version and strict flag, the parsed fields from the per-version cache.
 * A save bumps the version, so the next render loads the new content.
 */
export async function renderTemplateById(
  workspaceId: string,
  templateId: string,
  variables: unknown,
): Promise<RenderedEmail> {
  assertVariablesObject(variables);
  const db = await getDb();
  const findVersion = preparedFor(db, "template-version", () =>
    db
      .select({ version: templates.version, strict: templates.strict })
      .from(templates)
      .where(
        and(eq(templates.workspaceId, sql.placeholder("workspaceId")), eq(templates.id, sql.placeholder("templateId"))),
      )
      .prepare("template_version"),
  );
  const [current] = await findVersion.execute({ workspaceId, templateId });
  if (!current) throw notFound(`Template ${templateId}`, "id");
  const compiled = await compiledVersion(templateId, current.version, () =>
    getTemplateOrThrow(workspaceId, templateId, "id"),
  );
  return renderCompiled(compiled, withPreviewDefaults(variables), { strict: current.strict });
}

export function assertVariablesObject(
  variables: unknown,
): asserts variables is Record<string, unknown> | null | undefined {
  if (variables !== undefined && variables !== null && !isPlainObject(variables)) {
    throw invalidParameter("variables", "variables must be a JSON object.");
  }
}

/** A loaded template rendered as /render and /preview do (variables already checked). */
export function renderStoredTemplate(
  template: TemplateSource & { strict: boolean },
  variables: Record<string, unknown> | null | undefined,
): RenderedEmail {
  return renderTemplate(template, withPreviewDefaults(variables), { strict: template.strict });
}

// A preview has no recipient: a stand-in link rather than an empty href or, in strict mode, an error.
function withPreviewDefaults(variables: Record<string, unknown> | null | undefined): Record<string, unknown> {
  return { unsubscribeUrl: `${env().APP_URL}/u/preview`, ...variables };
}
