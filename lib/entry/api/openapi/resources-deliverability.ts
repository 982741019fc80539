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

/** The last 30 days of a domain's DMARC aggregate reports (docs/deliverability.md#dmarc-reports). */
const kind = z.enum(["ours", "known", "unknown"]);
export const dmarcSummaryResource = z.object({
  days: z.int(),
  reports: z.int().describe("Reports received for the domain in the window."),
  reporters: z.array(z.string()).describe("Who sent them (google.com, Enterprise Outlook, Yahoo…)."),
  policy: z.string().nullable().describe("The p= the newest report saw published; null before any report."),
  messages: z.int(),
  passing: z.int().describe("Messages passing DMARC (SPF or DKIM aligned)."),
  passRate: z.number().nullable().describe("passing / messages, 0–1; null without messages."),
  failing: z
    .object({ ours: z.int(), known: z.int(), unknown: z.int() })
    .describe("Messages failing DMARC by kind of source: what p=quarantine would junk and p=reject refuse."),
  sources: z.array(
    z.object({
      sourceIp: z.string(),
      reverseDns: z.string().nullable(),
      kind: kind.describe(
        "ours: this deployment's sending path; known: a service by reverse DNS; unknown: possible spoofing.",
      ),
      service: z.string().nullable(),
      messages: z.int(),
      passing: z.int(),
      spfAligned: z.int(),
      dkimAligned: z.int(),
    }),
  ),
});
