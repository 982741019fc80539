import type { MessageDoor, MessageSource } from "@/db/schema/messages";

/**
 * How a message came in, in words (docs/dashboard.md#how-it-was-sent): the door it was submitted by, else (rows from
 * before the door was recorded, workflow steps) its Waypoint `source`, which says API for SMTP mail too.
 */
export interface DoorFacts {
  source: MessageSource;
  submittedVia: MessageDoor | null;
}

export function doorWords(message: DoorFacts): string {
  const sandbox = message.source.startsWith("SANDBOX_") ? " (sandbox)" : "";
  const batch = message.source.endsWith("BATCH") ? ", in a batch" : "";
  switch (message.submittedVia) {
    case "smtp":
      return `Sent over SMTP${sandbox}`;
    case "api":
      return `Sent through the API${batch}${sandbox}`;
    case "dashboard":
      return message.source === "PREVIEW"
        ? "A test send from the template studio"
        : `Sent from the dashboard${sandbox}`;
    case "system":
      return "Sent by Postwerk itself (an invitation or sign-in link)";
    default:
      return SOURCE_WORDS[message.source];
  }
}

const SOURCE_WORDS: Record<MessageSource, string> = {
  API: "Sent through the API or over SMTP",
  SANDBOX_API: "Sent through the API or over SMTP (sandbox)",
  BATCH: "Sent through the API, in a batch",
  SANDBOX_BATCH: "Sent through the API, in a batch (sandbox)",
  WORKFLOW: "Sent by a workflow",
  SANDBOX_WORKFLOW: "Sent by a workflow (sandbox)",
  PREVIEW: "A template test send",
};
