import "server-only";
import { actorOr, type AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { getDb, type Tx } from "@/db/client";
import { templates } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { insertTemplateVersion } from "./insert-template-version";
import { compileTemplateOrThrow } from "./render.shared";
import type { TemplateKind } from "@/db/schema/templates";

export interface CreateTemplateInput {
  workspaceId: string;
  name: string;
  subject: string;
  bodyHtml: string;
  bodyText?: string | null;
  fromAddress?: string | null;
  replyTo?: string | null;
  strict?: boolean;
  kind?: TemplateKind;
  blocks?: Record<string, unknown> | null;
  userId?: string | null;
  actor?: AuditActor;
}

/** Refused, not saved, when its Liquid does not parse; with an executor the caller's transaction holds both rows. */
export async function createTemplate(input: CreateTemplateInput, executor?: Tx) {
  compileTemplateOrThrow({ subject: input.subject, bodyHtml: input.bodyHtml, bodyText: input.bodyText ?? null });
  const write = async (tx: Tx) => {
    const [template] = await tx
      .insert(templates)
      .values({
        id: newId("template"),
        workspaceId: input.workspaceId,
        name: input.name.trim(),
        subject: input.subject,
        bodyHtml: input.bodyHtml,
        bodyText: input.bodyText ?? null,
        fromAddress: input.fromAddress ?? null,
        replyTo: input.replyTo ?? null,
        strict: input.strict ?? false,
        kind: input.kind ?? "code",
        blocks: input.kind === "blocks" ? (input.blocks ?? null) : null,
        version: 1,
        updatedByUserId: input.userId ?? null,
      })
      .returning();
    await insertTemplateVersion(tx, template, { userId: input.userId ?? null });
    await recordAudit(tx, {
      workspaceId: template.workspaceId,
      actor: actorOr(input.actor, input.userId),
      action: "template.create",
      target: { type: "template", id: template.id },
      after: { name: template.name, subject: template.subject, kind: template.kind, version: 1 },
    });
    return template;
  };
  if (executor) return write(executor);
  return (await getDb()).transaction(write);
}
