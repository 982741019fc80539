import "server-only";
import { checkRenderedContent, sortFindings } from "@/lib/domain/templates/content-checks.shared";
import { previewDraft, previewDraftSchema } from "@/lib/domain/templates/preview-draft";
import { blankVariables } from "@/lib/domain/templates/variables.shared";
import { env } from "@/lib/foundation/env";
import { isPlainObject } from "@/lib/foundation/validation.shared";
import type { ContentCheckResult } from "./check-template-content";
import { checkStatus, spamFinding, spamVerdict } from "./spam-finding";

/**
 * The studio's content check (on demand and on save): the editor's unsaved draft, in the locale it shows, through the
 * same rules as POST /v1/templates/:id/check. A draft that does not render has no content to check: null (the
 * preview shows why).
 */
export async function checkDraftContent(input: unknown): Promise<ContentCheckResult | null> {
  const groupMail = isPlainObject(input) && input.groupMail === true;
  const body = isPlainObject(input) ? { ...input, groupMail: undefined } : input;
  const preview = previewDraft(body);
  if (!preview.rendered) return null;
  const draft = previewDraftSchema.parse(body);
  const blank = blankVariables([draft.subject, draft.bodyHtml, draft.bodyText], draft.variables);
  const content = {
    subject: preview.rendered.subject,
    html: preview.rendered.bodyHtml,
    text: draft.bodyText ? preview.rendered.bodyText : null,
  };
  const context = {
    emptyVariables: [...new Set([...preview.missingVariables, ...blank])],
    groupMail,
    unsubscribeUrl: `${env().APP_URL}/u/preview`,
  };
  const spam = await spamVerdict(content);
  const findings = sortFindings([spamFinding(spam), ...checkRenderedContent(content, context)]);
  const locale = preview.usedLocale;
  return {
    status: checkStatus(findings),
    findings: locale ? findings.map((finding) => ({ ...finding, locale })) : findings,
    spam,
    locales: locale ? [locale] : [],
  };
}
