import "server-only";
import { actorOr, type AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { getDb, type Tx } from "@/db/client";
import { templates } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { insertTemplateVersion } from "./insert-template-version";
import { checkedTemplateLocales, type TemplateLocales } from "./locale-variants.shared";
import { compileTemplateOrThrow } from "./render.shared";
import { replaceTemplateLocalesIn } from "./template-locale-rows";
import type { TemplateLocalesInput } from "./update-template";
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
  /** Default locale `en` and no variants when omitted. */
  locales?: TemplateLocalesInput;
}

/** Refused, not saved, when its Liquid does not parse. */
export async function createTemplate(input: CreateTemplateInput) {
  const locales = checkedInput(input);
  return (await getDb()).transaction((tx) => insertTemplate(tx, input, locales));
}

/** The same in the caller's transaction, which then holds both rows. */
export async function createTemplateIn(tx: Tx, input: CreateTemplateInput) {
  return insertTemplate(tx, input, checkedInput(input));
}

function checkedInput(input: CreateTemplateInput): TemplateLocales | null {
  compileTemplateOrThrow({ subject: input.subject, bodyHtml: input.bodyHtml, bodyText: input.bodyText ?? null });
  if (!input.locales) return null;
  const locales = checkedTemplateLocales(input.locales);
  for (const { subject, bodyHtml, bodyText } of locales.variants) {
    compileTemplateOrThrow({ subject: subject ?? "", bodyHtml: bodyHtml ?? "", bodyText });
  }
  return locales;
}

async function insertTemplate(tx: Tx, input: CreateTemplateInput, locales: TemplateLocales | null) {
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
      ...(locales ? { defaultLocale: locales.defaultLocale } : {}),
      updatedByUserId: input.userId ?? null,
    })
    .returning();
  if (locales) await replaceTemplateLocalesIn(tx, template, locales.variants);
  await insertTemplateVersion(tx, template, { userId: input.userId ?? null });
  await recordAudit(tx, {
    workspaceId: template.workspaceId,
    actor: actorOr(input.actor, input.userId),
    action: "template.create",
    target: { type: "template", id: template.id },
    after: { name: template.name, subject: template.subject, kind: template.kind, version: 1 },
  });
  return template;
}
