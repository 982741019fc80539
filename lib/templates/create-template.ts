import "server-only";
import { getDb, type Executor } from "@/db/client";
import { templates } from "@/db/schema";
import { newId } from "@/lib/ids";
import { compileTemplateOrThrow } from "./render.shared";

export interface CreateTemplateInput {
  workspaceId: string;
  name: string;
  subject: string;
  bodyHtml: string;
  bodyText?: string | null;
  fromAddress?: string | null;
  replyTo?: string | null;
  strict?: boolean;
}

/** Stores a template after checking that its Liquid parses (a broken template is refused, not saved). */
export async function createTemplate(input: CreateTemplateInput, executor?: Executor) {
  compileTemplateOrThrow({ subject: input.subject, bodyHtml: input.bodyHtml, bodyText: input.bodyText ?? null });
  const db = executor ?? (await getDb());
  const [template] = await db
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
    })
    .returning();
  return template;
}
