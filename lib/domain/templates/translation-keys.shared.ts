// The missing-translation lint (docs/templates.md#the-missing-translation-lint). Pure, so the studio can show what
// the API would refuse: the translation keys a template's Liquid uses, and those a variant's message table lacks.
import { TypeGuards, toValueSync, Value, type Template } from "liquidjs";
import { AppError, type ErrorDetail } from "@/lib/foundation/errors";
import { compileTemplate, type TemplateSource } from "./render.shared";
import { resolveTemplateVariant, type TemplateWithVariants } from "./template-variant.shared";

/** What the walk reads of a parsed node: the tag name, its arguments and its nested templates. */
interface WalkNode {
  name?: string;
  arguments?: () => Iterable<unknown>;
  children?: (partials: boolean, sync: boolean) => Generator<unknown, Template[]>;
}

/** A literal key: `"cart.title"`; a key computed at render time (`{% t key %}`) is not known before it. */
function literalKey(token: unknown): string | null {
  return TypeGuards.isQuotedToken(token) ? token.content : null;
}

/** `"cart.title" | t` (the key as the value, `t` its first filter). */
function filterKey(value: Value): string | null {
  const [first] = value.filters;
  if (first?.name !== "t" || value.initial.postfix.length !== 1) return null;
  return literalKey(value.initial.postfix[0]);
}

function collectKeys(templates: Template[], into: Set<string>): void {
  for (const node of templates as unknown as WalkNode[]) {
    const args = node.arguments ? [...node.arguments()] : [];
    if (node.name === "t" && args.length > 0) {
      const key = literalKey(args[0]);
      if (key !== null) into.add(key);
    }
    for (const arg of args) {
      const key = arg instanceof Value ? filterKey(arg) : null;
      if (key !== null) into.add(key);
    }
    // Block tags (if, for, case, capture, liquid…) hold their branches as children; partials are never loaded.
    if (node.children) collectKeys(toValueSync(node.children(false, true)), into);
  }
}

/** The literal keys `{% t "key" %}` and `{{ "key" | t }}` use in the sources, sorted (throws when one does not parse). */
export function translationKeys(source: TemplateSource): string[] {
  const compiled = compileTemplate(source);
  const keys = new Set<string>();
  for (const parsed of [compiled.subject, compiled.bodyHtml, compiled.bodyText]) if (parsed) collectKeys(parsed, keys);
  return [...keys].sort();
}

/**
 * The keys `locale`'s effective content (its own fields, else its language's, else the default's) uses that its
 * message table (with its language's: `fr-CA` reads `fr`'s) lacks. For the default locale: its own table.
 */
export function missingTranslationKeys(template: TemplateWithVariants, locale: string): string[] {
  const resolved = resolveTemplateVariant(template, locale);
  return translationKeys(resolved.source).filter((key) => !Object.hasOwn(resolved.messages, key));
}

/**
 * A save of `locale` whose table lacks a used key is refused (422 TEMPLATE_MISSING_TRANSLATIONS naming `messages`,
 * one detail per key), unless the variant falls back for missing keys (the default's text is sent for them).
 */
export function assertTranslationsPresent(template: TemplateWithVariants, locale: string): void {
  const variant = template.variants.find((candidate) => candidate.locale === locale);
  if (variant?.fallsBackForMissingKeys) return;
  const missing = missingTranslationKeys(template, locale);
  if (missing.length === 0) return;
  const shown = missing.slice(0, 20).map((key) => JSON.stringify(key));
  const more = missing.length > shown.length ? ` and ${missing.length - shown.length} more` : "";
  const details: ErrorDetail[] = missing.map((key, index) => ({
    index,
    param: `messages[${JSON.stringify(key)}]`,
    code: "TEMPLATE_MISSING_TRANSLATIONS",
    message: `The template uses "${key}"; ${locale} has no text for it.`,
  }));
  throw new AppError(
    "TEMPLATE_MISSING_TRANSLATIONS",
    `Locale ${locale} lacks ${missing.length === 1 ? "a key" : `${missing.length} keys`} the template uses: ${shown.join(", ")}${more}. Add ${missing.length === 1 ? "it" : "them"} to its messages, or set fallsBackForMissingKeys to send the default locale's text for them.`,
    { param: "messages", details },
  );
}
