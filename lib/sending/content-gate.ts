import "server-only";
import { checkRenderedContent, sortFindings, type ContentFinding } from "@/lib/domain/templates/content-checks.shared";
import { env } from "@/lib/foundation/env";
import { AppError } from "@/lib/foundation/errors";

interface SendContent {
  subject: string;
  bodyHtml: string;
  bodyText: string;
}

/**
 * CONTENT_CHECKS on a send (docs/deliverability.md#content-checks): the rules that read the rendered content (no
 * SpamAssassin: a send must not wait for it). `block` refuses content with an error finding, naming the field at
 * fault; `warn` answers the findings in a sentence the RENDERED event carries; `off` (the default) checks nothing.
 */
export function gateContent(
  content: SendContent,
  options: { unsubscribeUrl: string | null; field: (name: string) => string; templated: boolean },
): string | null {
  const mode = env().CONTENT_CHECKS;
  if (mode === "off") return null;
  const findings = sortFindings(
    checkRenderedContent(
      { subject: content.subject, html: content.bodyHtml, text: content.bodyText },
      // A send's unsubscribe link is its own; without a group there is none to look for (a note, never a finding here).
      {
        emptyVariables: [],
        groupMail: options.unsubscribeUrl !== null,
        unsubscribeUrl: options.unsubscribeUrl ?? "\u0000",
      },
    ),
  ).filter((finding) => finding.severity !== "info");
  const errors = findings.filter((finding) => finding.severity === "error");
  if (mode === "block" && errors.length > 0) {
    const param = (finding: ContentFinding) =>
      options.field(finding.rule === "subject_length" ? "subject" : options.templated ? "templateId" : "bodyHtml");
    throw new AppError(
      "CONTENT_CHECK_FAILED",
      `Content checks refused the message: ${errors.map((e) => e.message).join(" ")}`,
      {
        param: param(errors[0]),
        details: errors.map((finding, index) => ({
          index,
          param: param(finding),
          code: "CONTENT_CHECK_FAILED" as const,
          message: `${finding.rule}: ${finding.message}`,
        })),
      },
    );
  }
  if (findings.length === 0) return null;
  return `Content checks: ${findings.map((finding) => `${finding.severity} ${finding.rule}`).join(", ")}.`;
}
