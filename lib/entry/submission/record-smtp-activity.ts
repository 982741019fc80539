import "server-only";
import { recordActivity } from "@/lib/records/activity/record-activity";
import { metrics } from "@/lib/foundation/metrics/metrics";
import type { SubmissionPrincipal } from "./submission-handlers";
import type { SmtpReply } from "./smtp-reply";

/** One activity entry per SMTP step that decided something (docs/api.md#smtp-activity), buffered off the reply's path. */
export function recordSmtpActivity(
  principal: SubmissionPrincipal,
  entry: {
    step: "MAIL" | "DATA";
    reply: SmtpReply | { responseCode: number; message: string };
    started: number;
    request: unknown;
    resourceId?: string;
  },
): void {
  metrics().smtpReplies.inc({ step: entry.step, code: String(entry.reply.responseCode) });
  recordActivity({
    workspaceId: principal.workspaceId,
    apiKeyId: principal.apiKeyId,
    method: "SMTP",
    path: `/smtp/${entry.step}`,
    status: entry.reply.responseCode,
    durationMs: Math.round(performance.now() - entry.started),
    sandbox: principal.sandbox,
    errorCode: entry.reply.responseCode >= 400 ? entry.reply.message.split(" ")[0] : null,
    resourceId: entry.resourceId ?? null,
    requestBody: entry.request,
    responseBody: { reply: `${entry.reply.responseCode} ${entry.reply.message}` },
  });
}
