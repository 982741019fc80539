import { z } from "zod";
import { REQUIREMENT_IDS } from "@/lib/domain/domains/requirements/requirement-lines.shared";

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
