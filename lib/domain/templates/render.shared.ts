import { compile } from "html-to-text";
import { Liquid, type Template } from "liquidjs";
import { AppError } from "@/lib/foundation/errors";
import { localeGlobals, registerLocaleLiquid, type LocaleContext } from "./locale-liquid.shared";

export type { LocaleContext } from "./locale-liquid.shared";

/**
 * The one renderer: preview, /render and the send path all call it, so what is previewed is what is sent. Pure.
 * HTML output escapes variables (`| raw` inserts trusted HTML); subject and text do not.
 */
export interface TemplateSource {
  subject: string;
  bodyHtml: string;
  bodyText: string | null;
}

export interface RenderedEmail {
  subject: string;
  bodyHtml: string;
  bodyText: string;
}

export type TemplateField = keyof TemplateSource;

function makeEngine(escapeOutput: boolean, strict: boolean): Liquid {
  const engine = new Liquid({
    strictVariables: strict,
    strictFilters: true,
    outputEscape: escapeOutput ? "escape" : undefined,
    // Templates come from workspace users: no file system access, bounded work.
    relativeReference: false,
    parseLimit: 1_000_000,
    renderLimit: 2_000,
    memoryLimit: 64_000_000,
  });
  engine.registerFilter("currency", formatCurrency);
  engine.registerFilter("pluralize", pluralize);
  registerLocaleLiquid(engine);
  return engine;
}

const engines = {
  html: { lenient: makeEngine(true, false), strict: makeEngine(true, true) },
  plain: { lenient: makeEngine(false, false), strict: makeEngine(false, true) },
};

/** `{{ 12.5 | currency }}` → "$12.50"; `{{ 12.5 | currency: "EUR", "de-DE" }}` → "12,50 €". Major units. */
export function formatCurrency(value: unknown, code: unknown = "USD", locale: unknown = "en-US"): string {
  const amount = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(amount)) return "";
  try {
    return currencyFormat(String(code), String(locale)).format(amount);
  } catch {
    throw new Error(`currency: unknown currency code "${String(code)}" or locale "${String(locale)}"`);
  }
}

const currencyFormats = new Map<string, Intl.NumberFormat>();

/** Kept per currency and locale: building one costs more than the rest of a render (docs/benchmarks.md#template-render-issue-20-2026-11-25). */
function currencyFormat(code: string, locale: string): Intl.NumberFormat {
  const key = `${code}\u0000${locale}`;
  let format = currencyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: "currency", currency: code });
    if (currencyFormats.size >= 200) currencyFormats.delete(currencyFormats.keys().next().value!);
    currencyFormats.set(key, format);
  }
  return format;
}

/** `{{ count | pluralize: "item", "items" }}` → "item" when count is 1, otherwise "items". */
export function pluralize(value: unknown, singular: unknown = "", plural: unknown = ""): string {
  return Number(value) === 1 ? String(singular) : String(plural);
}

const PARSE_CACHE_LIMIT = 500;
const parseCache = new Map<string, Template[]>();

function parseCached(engine: Liquid, kind: "html" | "plain", source: string): Template[] {
  const key = `${kind}\u0000${source}`;
  const cached = parseCache.get(key);
  if (cached) return cached;
  const parsed = engine.parse(source);
  if (parseCache.size >= PARSE_CACHE_LIMIT) parseCache.delete(parseCache.keys().next().value!);
  parseCache.set(key, parsed);
  return parsed;
}

/** A template's fields parsed once: what the per-version cache keeps (render-template-by-id.ts). */
export interface CompiledTemplate {
  subject: Template[];
  bodyHtml: Template[];
  bodyText: Template[] | null;
}

const kindOf = (field: TemplateField) => (field === "bodyHtml" ? "html" : "plain");

function parseField(field: TemplateField, source: string): Template[] {
  const kind = kindOf(field);
  try {
    return parseCached(engines[kind].lenient, kind, source);
  } catch (error) {
    throw templateError(field, error);
  }
}

/** Parses every field (throws TEMPLATE_RENDER_ERROR naming the field when one does not parse). */
export function compileTemplate(source: TemplateSource): CompiledTemplate {
  return {
    subject: parseField("subject", source.subject),
    bodyHtml: parseField("bodyHtml", source.bodyHtml),
    bodyText: source.bodyText ? parseField("bodyText", source.bodyText) : null,
  };
}

/** How a render is done: strict variables, and the locale (docs/templates.md#localisation; none: `en`, ltr). */
export interface RenderOptions {
  strict?: boolean;
  locale?: LocaleContext;
}

function renderField(
  field: TemplateField,
  parsed: Template[],
  variables: Record<string, unknown>,
  strict: boolean,
  globals: object,
): string {
  const engine = engines[kindOf(field)][strict ? "strict" : "lenient"];
  try {
    return engine.renderSync(parsed, variables, { globals }) as string;
  } catch (error) {
    throw templateError(field, error);
  }
}

/** Renders subject, HTML and text; with no text part, text is derived from the HTML (links as `text [url]`). */
export function renderTemplate(
  source: TemplateSource,
  variables: Record<string, unknown>,
  options: RenderOptions = {},
): RenderedEmail {
  return renderCompiled(compileTemplate(source), variables, options);
}

export function renderCompiled(
  compiled: CompiledTemplate,
  variables: Record<string, unknown>,
  options: RenderOptions = {},
): RenderedEmail {
  const strict = options.strict ?? false;
  const globals = localeGlobals(options.locale);
  const subject = renderField("subject", compiled.subject, variables, strict, globals).replace(/\s+/g, " ").trim();
  const bodyHtml = renderField("bodyHtml", compiled.bodyHtml, variables, strict, globals);
  const bodyText = compiled.bodyText
    ? renderField("bodyText", compiled.bodyText, variables, strict, globals)
    : htmlToText(bodyHtml);
  return { subject, bodyHtml, bodyText };
}

/** Throws TEMPLATE_RENDER_ERROR naming the field, line and column when any part does not parse. */
export function compileTemplateOrThrow(source: TemplateSource): void {
  for (const field of ["subject", "bodyHtml", "bodyText"] as const) {
    const text = source[field];
    if (text == null) continue;
    const kind = field === "bodyHtml" ? "html" : "plain";
    try {
      parseCached(engines[kind].lenient, kind, text);
    } catch (error) {
      throw templateError(field, error);
    }
  }
}

// Compiled once: convert() would recompile its options on every call.
const toText = compile({
  wordwrap: false,
  selectors: [
    { selector: "a", options: { linkBrackets: ["[", "]"], hideLinkHrefIfSameAsText: true } },
    { selector: "img", format: "skip" },
    { selector: "h1", options: { uppercase: false } },
    { selector: "h2", options: { uppercase: false } },
    { selector: "h3", options: { uppercase: false } },
    { selector: "table", format: "dataTable" },
  ],
});

export function htmlToText(html: string): string {
  return toText(html).trim();
}

export interface TemplateErrorPosition {
  field: TemplateField;
  line?: number;
  column?: number;
}

function templateError(field: TemplateField, error: unknown): AppError {
  const raw = error instanceof Error ? error.message : String(error);
  const position = raw.match(/line:(\d+), col:(\d+)/);
  const where = position ? ` (line ${position[1]}, column ${position[2]})` : "";
  const reason = raw.replace(/, line:\d+, col:\d+/, "").split("\n")[0];
  return new AppError("TEMPLATE_RENDER_ERROR", `Template ${field}${where}: ${reason}`, { param: field });
}

/** Liquid in a one-line field (a template's default sender or reply-to), unescaped. */
export function renderLine(
  source: string,
  variables: Record<string, unknown>,
  param: string,
  options: RenderOptions = {},
): string {
  const engine = engines.plain[options.strict ? "strict" : "lenient"];
  const globals = localeGlobals(options.locale);
  try {
    return (engine.renderSync(parseCached(engine, "plain", source), variables, { globals }) as string)
      .replace(/\s+/g, " ")
      .trim();
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new AppError("TEMPLATE_RENDER_ERROR", `Template ${param}: ${reason}`, { param });
  }
}

/** The global variable paths a source reads, loop and `assign` locals excluded; throws when it does not parse. */
export function variableSegments(source: string): Array<Array<string | number>> {
  const engine = engines.plain.lenient;
  return engine.globalVariableSegmentsSync(parseCached(engine, "plain", source)) as Array<Array<string | number>>;
}
