import type { templates } from "@/db/schema";
import type { RenderedEmail } from "./render.shared";

export function serializeRendered(rendered: RenderedEmail, at = new Date()) {
  return { type: "RenderedTemplate" as const, createdAt: at.toISOString(), bodyHtml: rendered.bodyHtml, bodyText: rendered.bodyText, subject: rendered.subject };
}

/** The raw Template (docs/api.md#resources), plus rawBodyText (docs/api.md#decided-templates). */
export function serializeRawTemplate(template: typeof templates.$inferSelect) {
  return {
    id: template.id,
    type: "Template" as const,
    createdAt: template.createdAt.toISOString(),
    updatedAt: template.updatedAt.toISOString(),
    rawSubject: template.subject,
    rawBodyHtml: template.bodyHtml,
    rawBodyText: template.bodyText,
  };
}
