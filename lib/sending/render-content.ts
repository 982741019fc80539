import "server-only";
import type { Executor } from "@/db/client";
import { AppError } from "@/lib/foundation/errors";
import { contactLocale } from "@/lib/domain/contacts/contact-locale";
import { getSendTemplateIn, readChainVariants, type SendTemplate } from "@/lib/domain/templates/get-send-template";
import { chooseLocale } from "@/lib/domain/templates/locale-tag.shared";
import { renderLine, renderTemplate, htmlToText } from "@/lib/domain/templates/render.shared";
import { resolveTemplateVariant } from "@/lib/domain/templates/template-variant.shared";
import type { SendCommand } from "./parse-send-request";

/** Shares lookups between the elements of one batch (request-memo.ts). */
export type Memo = <T>(key: string, load: () => Promise<T> | PromiseLike<T>) => Promise<T>;

export interface RenderedContent {
  subject: string;
  bodyHtml: string;
  bodyText: string;
  templateFrom: string | null;
  templateReplyTo: string | null;
  /** The locale rendered in; raw content: the send's (null when it names none). */
  locale: string | null;
  /** The locale asked for: the send's, else the contact's, else the workspace's default; null when none. */
  requestedLocale: string | null;
}

/** Names this message's field on an AppError from a shared lookup; any other error goes on unchanged. */
export const rethrowAt =
  (param: string) =>
  (error: unknown): never => {
    if (error instanceof AppError) throw new AppError(error.code, error.message, { param });
    throw error;
  };

/**
 * The message's content: raw as given, or the template's variant for the send's locale, else the first `to`
 * contact's, else the workspace's default locale, else the template's default
 * (docs/templates.md#where-the-locale-comes-from).
 */
export async function renderContent(
  db: Executor,
  workspace: { id: string; defaultLocale: string | null },
  command: SendCommand,
  p: (name: string) => string,
  memo: Memo,
  unsubscribe: string | null,
): Promise<RenderedContent> {
  if (command.raw) {
    // Raw content is sent as given (no Liquid): only the text part is derived when absent.
    const { subject, bodyHtml, bodyText } = command.raw;
    return {
      subject: subject.replace(/\s+/g, " ").trim(),
      bodyHtml,
      bodyText: bodyText ?? htmlToText(bodyHtml),
      templateFrom: null,
      templateReplyTo: null,
      locale: command.locale,
      requestedLocale: command.locale,
    };
  }
  const templateId = command.templateId!;
  const template = await memo(`template:${templateId}`, () => getSendTemplateIn(db, workspace.id, templateId)).catch(
    rethrowAt(p("templateId")),
  );
  const resolved = await resolveVariant(db, workspace, template, command, memo);
  const options = { strict: template.strict, locale: resolved.localeContext };
  const variables = unsubscribe ? { ...command.variables, unsubscribeUrl: unsubscribe } : command.variables;
  const rendered = renderTemplate(resolved.source, variables, options);
  return {
    ...rendered,
    templateFrom: template.fromAddress ? renderLine(template.fromAddress, command.variables, "from", options) : null,
    templateReplyTo: template.replyTo
      ? renderLine(template.replyTo, command.variables, "replyTo", options) || null
      : null,
    locale: resolved.usedLocale,
    requestedLocale: resolved.requestedLocale,
  };
}

/**
 * No query beyond the template's when it has no variant rows; otherwise the contact's locale (only when the send
 * names none and there is a variant besides the default) and the chain's rows, each once per batch. The workspace's
 * default locale comes with its row; like the contact's, it is asked for only when a variant could answer it, so a
 * template without variants records what the send asked for and nothing else.
 */
async function resolveVariant(
  db: Executor,
  workspace: { id: string; defaultLocale: string | null },
  template: SendTemplate,
  command: SendCommand,
  memo: Memo,
) {
  let requested = command.locale;
  const recipient = command.to[0]?.address.toLowerCase();
  if (requested === null && template.locales.some((locale) => locale !== template.defaultLocale)) {
    if (recipient)
      requested = await memo(`contact-locale:${recipient}`, () => contactLocale(db, workspace.id, recipient));
    requested ??= workspace.defaultLocale;
  }
  if (template.locales.length === 0) return resolveTemplateVariant({ ...template, variants: [] }, requested);
  const { chain } = chooseLocale(requested, template.defaultLocale, template.locales);
  const variants = await memo(`template-chain:${template.id}:${chain.join(",")}`, () =>
    readChainVariants(db, template.id, chain),
  );
  return resolveTemplateVariant({ ...template, variants }, requested);
}
