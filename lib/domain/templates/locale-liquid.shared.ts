// What localisation adds to the Liquid engines (docs/templates.md#localisation): the `t` tag and filter reading the
// message tables, and `money`, `number` and the `date` styles formatting for the used locale. Pure. The locale
// context travels in the render's globals under a symbol no template can name.
import {
  evalToken,
  filters as builtinFilters,
  Hash,
  Tag,
  type Context,
  type Liquid,
  type TagToken,
  type TopLevelToken,
  type ValueToken,
} from "liquidjs";
import { formatMessage, parseMessage } from "./icu-message.shared";
import { dateFormat, isDateStyle, messageFormatters, moneyFormat, numberFormat } from "./intl-formats.shared";
import { textDirection } from "./locale-tag.shared";

/** What a render needs to know about its locale: given by resolveTemplateVariant (template-variant.shared.ts). */
export interface LocaleContext {
  /** The used locale, canonical: formats, plural rules and `dir` follow it. */
  locale: string;
  /** The used variant's message table (a regional variant's keys over its language's). */
  messages: Record<string, string>;
  /** The default locale's table, read for keys the variant lacks (a send never fails over a missing key). */
  fallbackMessages: Record<string, string>;
  /** The default locale: its plural rules format a text taken from fallbackMessages. Defaults to `locale`. */
  fallbackLocale?: string;
}

/** The locale of a render without a locale context (a template's default locale is `en` unless set). */
export const DEFAULT_LOCALE = "en";

/** What liquidjs binds `this` to in a filter (its FilterImpl type is not exported). */
type FilterImpl = { context: Context };

const LOCALE = Symbol("postwerk.localeContext");

type LocaleGlobals = { locale: string; dir: "ltr" | "rtl"; text_direction: "ltr" | "rtl"; [LOCALE]?: LocaleContext };

/** The names every render provides (a template's own variable of the same name wins). */
export const LOCALE_VARIABLES = ["locale", "dir", "text_direction"] as const;

const DEFAULT_GLOBALS: LocaleGlobals = { locale: DEFAULT_LOCALE, dir: "ltr", text_direction: "ltr" };

/** The render's globals: `locale`, `dir` / `text_direction` (`rtl` or `ltr`), and the context for the tags. */
export function localeGlobals(context: LocaleContext | undefined): LocaleGlobals {
  if (!context) return DEFAULT_GLOBALS;
  const dir = textDirection(context.locale);
  return { locale: context.locale, dir, text_direction: dir, [LOCALE]: context };
}

function contextOf(ctx: Context): LocaleContext | undefined {
  return (ctx.globals as Partial<LocaleGlobals>)[LOCALE];
}

const localeOf = (ctx: Context) => contextOf(ctx)?.locale ?? DEFAULT_LOCALE;

/** The key's text from the variant, else the default's; else the key itself (lenient) or an error (strict). */
export function translate(ctx: Context, key: unknown, args: Record<string, unknown>): string {
  const name = String(key ?? "");
  const locale = contextOf(ctx);
  let text: string | undefined;
  let formatLocale = locale?.locale ?? DEFAULT_LOCALE;
  if (locale && Object.hasOwn(locale.messages, name)) text = locale.messages[name];
  else if (locale && Object.hasOwn(locale.fallbackMessages, name)) {
    text = locale.fallbackMessages[name];
    formatLocale = locale.fallbackLocale ?? locale.locale;
  }
  if (typeof text !== "string") {
    if (ctx.strictVariables) throw new Error(`t: no translation for "${name}" in ${formatLocale}`);
    return name;
  }
  let parts;
  try {
    parts = parseMessage(text);
  } catch (error) {
    if (ctx.strictVariables) throw new Error(`t: "${name}" in ${formatLocale}: ${(error as Error).message}`);
    return text;
  }
  const value = (arg: string) => (Object.hasOwn(args, arg) ? args[arg] : ctx.getSync(arg.split(".")));
  return formatMessage(parts, formatLocale, value, messageFormatters);
}

/** `{% t "cart.items", count: cart.count %}`: escaped in HTML like `{{ }}` output. */
class TranslateTag extends Tag {
  private readonly key: ValueToken;
  private readonly hash: Hash;

  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid) {
    super(token, remainTokens, liquid);
    const key = this.tokenizer.readValue();
    if (!key) throw new Error(`t: a translation key is needed, as in {% t "cart.title" %}`);
    this.key = key;
    this.hash = new Hash(this.tokenizer);
  }

  *render(ctx: Context): Generator<unknown, string, unknown> {
    const key = yield evalToken(this.key, ctx);
    const args = (yield this.hash.render(ctx)) as Record<string, unknown>;
    const text = translate(ctx, key, args);
    const escape = this.liquid.options.outputEscape;
    if (!escape) return text;
    return (yield escape.call({ context: ctx, token: this.token, liquid: this.liquid } as never, text)) as string;
  }

  *arguments() {
    yield this.key;
    for (const value of Object.values(this.hash.hash)) if (value) yield value;
  }
}

/** `{{ "cart.items" | t: count: n }}`: keyword arguments arrive as [name, value] pairs. */
function translateFilter(this: FilterImpl, key: unknown, ...argv: unknown[]): string {
  const args: Record<string, unknown> = {};
  for (const arg of argv) {
    if (Array.isArray(arg) && arg.length === 2 && typeof arg[0] === "string") args[arg[0]] = arg[1];
  }
  return translate(this.context, key, args);
}

function amountOf(value: unknown): number | null {
  if (value == null || value === "") return null;
  const amount = typeof value === "number" ? value : Number(value);
  return Number.isFinite(amount) ? amount : null;
}

/** `{{ 12.5 | money: "EUR" }}` → `12,50 €` in fr, `€12.50` in en-IE. Major units; empty for a non-number. */
function money(this: FilterImpl, value: unknown, code: unknown = "USD"): string {
  const amount = amountOf(value);
  if (amount === null) return "";
  try {
    return moneyFormat(localeOf(this.context), String(code).toUpperCase()).format(amount);
  } catch {
    throw new Error(`money: unknown currency code "${String(code)}"`);
  }
}

/** `{{ 1234.5 | number }}` → `1,234.5` in en, `1 234,5` in fr; `| number: 2` fixes the decimals. */
function number(this: FilterImpl, value: unknown, decimals?: unknown): string {
  const amount = amountOf(value);
  if (amount === null) return "";
  const digits = decimals == null ? undefined : Math.min(20, Math.max(0, Math.trunc(Number(decimals)) || 0));
  return numberFormat(localeOf(this.context), digits).format(amount);
}

const builtinDate = builtinFilters.date as (this: FilterImpl, ...args: unknown[]) => unknown;

/** `date: "long"` (short, medium, long, full) follows the locale, in UTC or the zone given; strftime formats as before. */
function date(this: FilterImpl, value: unknown, format?: unknown, zone?: unknown): unknown {
  if (!isDateStyle(format)) return builtinDate.call(this, value, format, zone);
  const parsed = toDate(value);
  if (!parsed) return value;
  const timeZone = zone == null || zone === "" ? "UTC" : String(zone);
  try {
    return dateFormat(localeOf(this.context), format, timeZone).format(parsed);
  } catch {
    throw new Error(`date: unknown time zone "${timeZone}"`);
  }
}

/** As Liquid's own date filter reads a value: "now", seconds since the epoch, a date text or a Date. */
function toDate(value: unknown): Date | null {
  let parsed: Date;
  if (value === "now" || value === "today") parsed = new Date();
  else if (typeof value === "number") parsed = new Date(value * 1000);
  else if (typeof value === "string" && /^\d+$/.test(value)) parsed = new Date(Number(value) * 1000);
  else if (typeof value === "string") parsed = new Date(value);
  else if (value instanceof Date) parsed = value;
  else return null;
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

/** Adds the tag and the filters to an engine (render.shared.ts makes its four engines with it). */
export function registerLocaleLiquid(engine: Liquid): void {
  engine.registerTag("t", TranslateTag);
  engine.registerFilter("t", translateFilter);
  engine.registerFilter("money", money);
  engine.registerFilter("number", number);
  engine.registerFilter("date", date);
}
