import "server-only";
import { buildMime } from "@/lib/delivery/mime/build-mime";
import type { ContentFinding, RenderedContent } from "@/lib/domain/templates/content-checks.shared";
import { checkSpam } from "@/lib/flows/inbound/parse/check-spam";
import type { SpamVerdict } from "@/lib/flows/inbound/parse/types";
import { env } from "@/lib/foundation/env";
import { newId } from "@/lib/foundation/ids";

/** SpamAssassin's verdict on the mail as it would be built (no recipient of ours: a stand-in address). */
export async function spamVerdict(content: RenderedContent): Promise<SpamVerdict> {
  const mime = await buildMime(newId("message"), {
    from: "Postwerk content check <check@postwerk.invalid>",
    to: ["recipient@example.org"],
    cc: [],
    bcc: [],
    replyTo: null,
    subject: content.subject,
    html: content.html,
    text: content.text ?? "",
    references: null,
    attachments: [],
  });
  return checkSpam(Buffer.from(mime.raw), env().SPAMD_URL);
}

export function spamFinding(spam: SpamVerdict): ContentFinding {
  const rule = "spam_score" as const;
  if (spam.status === "not_checked")
    return { rule, severity: "info", message: "Not checked by SpamAssassin: SPAMD_URL is not set." };
  if (spam.status === "error" || spam.score === null)
    return { rule, severity: "warning", message: "SpamAssassin did not answer (SPAMD_URL): checked again next time." };
  const threshold = spam.threshold ?? 5;
  const rules = spam.rules.length > 0 ? ` Rules: ${spam.rules.join(", ")}.` : "";
  const scored = `SpamAssassin scores it ${spam.score} (spam at ${threshold}).${rules}`;
  if (spam.score >= threshold) return { rule, severity: "error", message: scored };
  if (spam.score >= threshold / 2) return { rule, severity: "warning", message: scored };
  return { rule, severity: "info", message: scored };
}

/** error when a finding is an error, warning when one is a warning, else pass. */
export function checkStatus(findings: ContentFinding[]): "pass" | "warning" | "error" {
  if (findings.some((finding) => finding.severity === "error")) return "error";
  return findings.some((finding) => finding.severity === "warning") ? "warning" : "pass";
}
