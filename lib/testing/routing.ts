import "server-only";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { createConnection } from "@/lib/domain/providers/create-connection";
import { createRule } from "@/lib/domain/providers/create-rule";
import { sendMessage } from "@/lib/sending/send-message";
import { deliverMessage } from "./deliver-message";
import { readMessageState } from "./fixtures";

/** A workspace connection to an SMTP relay on loopback (tests set PROVIDERS_ALLOW_PRIVATE=true). */
export function smtpConnection(workspaceId: string, name: string, url: string) {
  return createConnection(workspaceId, { name, kind: "smtp", url }, AUDIT_SYSTEM_ACTOR);
}

export function routingRule(workspaceId: string, body: Record<string, unknown>) {
  return createRule(workspaceId, body, AUDIT_SYSTEM_ACTOR);
}

/** Accepts a live message (its job waits in the queue) and returns its id. */
export async function acceptMail(
  workspaceId: string,
  to: string,
  extra: { tags?: string[]; templateId?: string; subject?: string } = {},
): Promise<string> {
  const { message } = await sendMessage({
    workspaceId,
    sandbox: false,
    body: {
      from: "Acme <hello@example.com>",
      to,
      ...(extra.templateId
        ? { templateId: extra.templateId, variables: { name: "Ada" } }
        : { subject: extra.subject ?? "Routed", bodyHtml: "<p>Hello</p>" }),
      ...(extra.tags ? { tags: extra.tags } : {}),
    },
  });
  return message.id;
}

/** One delivery try of the message, as the worker would make it; its error (the queue would retry) or null. */
export async function deliverOnce(workspaceId: string, messageId: string, attempt = 0): Promise<Error | null> {
  try {
    await deliverMessage({ messageId, workspaceId }, { attempt });
    return null;
  } catch (error) {
    return error as Error;
  }
}

/** The timeline's sentences, in order. */
export async function timelineWords(messageId: string): Promise<string[]> {
  return (await readMessageState(messageId)).events.map((event) => event.message);
}
