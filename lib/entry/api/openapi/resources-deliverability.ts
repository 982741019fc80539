import { z } from "zod";
import { REQUIREMENT_IDS } from "@/lib/domain/domains/requirements/requirement-lines.shared";
import { CONTENT_RULES } from "@/lib/domain/templates/content-checks.shared";

/** A domain's sender-requirement checks (docs/deliverability.md#sender-requirements). */
const status = z.enum(["pass", "warn", "fail"]);

export const requirementLineResource = z.object({
  id: z.enum(REQUIREMENT_IDS),
  title: z.string(),
  status,
  why: z.string().describe("What the check found, in a sentence."),
  fix: z.string().nullable().describe("The exact record or setting that fixes it; null when nothing needs changing."),
  requiredBy: z.array(z.string()).describe("The mailbox providers whose sender rules ask for it."),
});

export const requirementCheckResource = z.object({
  id: z.string().describe('A "dchk_" prefix and 16 base62 characters.'),
  checkedAt: z.iso.datetime(),
  status: status.describe("The worst line's status."),
  lines: z.array(requirementLineResource),
});

/** A template's content check (docs/deliverability.md#content-checks). */
export const contentCheckResource = z.object({
  status: z
    .enum(["pass", "warning", "error"])
    .describe("error when a finding is an error, warning when one is a warning."),
  findings: z.array(
    z.object({
      rule: z.enum(CONTENT_RULES),
      severity: z.enum(["error", "warning", "info"]),
      message: z.string(),
      locale: z.string().optional().describe("The locale it was found in, when the template has several."),
    }),
  ),
  spam: z
    .object({
      status: z.enum(["not_checked", "ham", "spam", "error"]),
      score: z.number().nullable(),
      threshold: z.number().nullable(),
      rules: z.array(z.string()),
    })
    .describe("SpamAssassin's verdict on the default locale's mail; not_checked without SPAMD_URL."),
  locales: z.array(z.string()).describe("The locales rendered and checked."),
});
