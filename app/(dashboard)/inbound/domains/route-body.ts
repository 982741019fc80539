import type { z } from "zod";
import type { inboundActionSchema } from "@/lib/domain/inbound/schemas";

type InboundAction = z.infer<typeof inboundActionSchema>;

/**
 * The route form's fields as the API's body (POST /v1/inbound_routes): one field per kind of action, in the order
 * they run; a refusal code makes the route a reject route alone. Numbers that do not parse are passed on as text, so
 * the use case's zod schema names the field.
 */
export function routeBodyFromForm(form: FormData): Record<string, unknown> {
  const text = (name: string) => String(form.get(name) ?? "").trim();
  const actions: InboundAction[] = [];
  const rejectCode = text("rejectCode");
  if (rejectCode) {
    actions.push({ type: "reject", code: numberOr(rejectCode) as number, message: text("rejectMessage") || "Refused" });
  } else {
    if (form.get("webhook") === "on") actions.push({ type: "webhook" });
    if (text("forwardTo")) actions.push({ type: "forward", to: text("forwardTo") });
    if (text("workflowId")) actions.push({ type: "workflow", workflowId: text("workflowId") });
    if (form.get("dmarcReports") === "on") actions.push({ type: "dmarc" });
  }
  const threshold = text("spamThreshold");
  return {
    pattern: text("pattern"),
    name: text("name") || null,
    actions,
    dmarcFailAction: text("dmarcFailAction") || "accept",
    spamThreshold: threshold ? numberOr(threshold) : null,
    spamAction: text("spamAction") || "quarantine",
    enabled: form.get("enabled") === "on",
  };
}

function numberOr(value: string): number | string {
  const number = Number(value);
  return Number.isFinite(number) ? number : value;
}
