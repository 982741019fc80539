// The subset of ICU message syntax translation keys may use (docs/templates.md#localisation): `{name}`,
// `{count, plural, offset:1 =0 {…} one {# item} other {# items}}`, `{n, selectordinal, …}`, `{kind, select, a {…}
// other {…}}`, `#` inside a plural, and ICU's apostrophe quoting (`''` is one apostrophe, `'{'` a literal brace).
// Pure and dependency-free: parsed once per message text (cached), formatted with Intl.PluralRules and NumberFormat.

export type MessagePart =
  | string
  | { kind: "arg"; name: string }
  | { kind: "pound" }
  | { kind: "plural"; name: string; ordinal: boolean; offset: number; options: Record<string, MessagePart[]> }
  | { kind: "select"; name: string; options: Record<string, MessagePart[]> };

export class MessageSyntaxError extends Error {}

const NAME = /^[A-Za-z_][\w.-]*$/;
const PLURAL_KEY = /^(=\d+(\.\d+)?|zero|one|two|few|many|other)$/;

class Parser {
  private at = 0;
  constructor(private readonly text: string) {}

  parse(): MessagePart[] {
    const parts = this.parts(false);
    if (this.at < this.text.length) this.fail(`unexpected "}"`);
    return parts;
  }

  private fail(why: string): never {
    throw new MessageSyntaxError(`${why} at character ${this.at + 1}`);
  }

  /** Text and arguments up to an unmatched `}` or the end. */
  private parts(inPlural: boolean): MessagePart[] {
    const parts: MessagePart[] = [];
    let text = "";
    const flush = () => {
      if (text) parts.push(text);
      text = "";
    };
    while (this.at < this.text.length) {
      const char = this.text[this.at];
      if (char === "}") break;
      if (char === "{") {
        flush();
        parts.push(this.argument());
      } else if (char === "#" && inPlural) {
        flush();
        parts.push({ kind: "pound" });
        this.at++;
      } else if (char === "'") {
        text += this.quoted(inPlural);
      } else {
        text += char;
        this.at++;
      }
    }
    flush();
    return parts;
  }

  /** `''` → `'`; `'{…}'` (or `'#'` in a plural) → the literal text; any other apostrophe is itself. */
  private quoted(inPlural: boolean): string {
    const next = this.text[this.at + 1];
    if (next === "'") {
      this.at += 2;
      return "'";
    }
    if (next !== "{" && next !== "}" && !(inPlural && next === "#")) {
      this.at++;
      return "'";
    }
    let literal = "";
    this.at++;
    while (this.at < this.text.length) {
      if (this.text[this.at] === "'") {
        if (this.text[this.at + 1] === "'") {
          literal += "'";
          this.at += 2;
          continue;
        }
        this.at++;
        return literal;
      }
      literal += this.text[this.at++];
    }
    return literal;
  }

  private word(): string {
    this.space();
    const start = this.at;
    while (this.at < this.text.length && !/[\s,{}]/.test(this.text[this.at])) this.at++;
    return this.text.slice(start, this.at);
  }

  private space() {
    while (this.at < this.text.length && /\s/.test(this.text[this.at])) this.at++;
  }

  private expect(char: string) {
    this.space();
    if (this.text[this.at] !== char) this.fail(`expected "${char}"`);
    this.at++;
  }

  private argument(): MessagePart {
    this.at++; // {
    const name = this.word();
    if (!NAME.test(name)) this.fail(`"${name}" is not an argument name`);
    this.space();
    if (this.text[this.at] === "}") {
      this.at++;
      return { kind: "arg", name };
    }
    if (this.at >= this.text.length) this.fail(`expected "}"`);
    this.expect(",");
    const type = this.word();
    if (type !== "plural" && type !== "selectordinal" && type !== "select") {
      this.fail(`"${type}" is not supported (plural, selectordinal or select)`);
    }
    this.expect(",");
    const offset = type === "select" ? 0 : this.offset();
    const options = this.options(type !== "select");
    if (!("other" in options)) this.fail(`{${name}, ${type}} needs an "other" case`);
    if (type === "select") return { kind: "select", name, options };
    return { kind: "plural", name, ordinal: type === "selectordinal", offset, options };
  }

  private offset(): number {
    this.space();
    if (!this.text.startsWith("offset:", this.at)) return 0;
    this.at += "offset:".length;
    const value = Number(this.word());
    if (!Number.isFinite(value)) this.fail("offset must be a number");
    return value;
  }

  private options(plural: boolean): Record<string, MessagePart[]> {
    const options: Record<string, MessagePart[]> = {};
    for (;;) {
      this.space();
      if (this.text[this.at] === "}") {
        this.at++;
        return options;
      }
      if (this.at >= this.text.length) this.fail(`expected "}"`);
      const key = this.word();
      if (!key || (plural && !PLURAL_KEY.test(key))) this.fail(`"${key}" is not a plural case`);
      this.expect("{");
      options[key] = this.parts(plural);
      if (this.text[this.at] !== "}") this.fail(`expected "}"`);
      this.at++;
    }
  }
}

const parsed = new Map<string, MessagePart[]>();

/** Throws MessageSyntaxError saying what is wrong and where. */
export function parseMessage(text: string): MessagePart[] {
  const hit = parsed.get(text);
  if (hit) return hit;
  const parts = new Parser(text).parse();
  if (parsed.size >= 5_000) parsed.delete(parsed.keys().next().value!);
  parsed.set(text, parts);
  return parts;
}

/** Null when the text is a valid message, else the problem in words (the publish lint and the API's checks). */
export function messageProblem(text: string): string | null {
  try {
    parseMessage(text);
    return null;
  } catch (error) {
    if (error instanceof MessageSyntaxError) return error.message;
    throw error;
  }
}

export interface MessageFormatters {
  pluralRules(locale: string, ordinal: boolean): Intl.PluralRules;
  number(locale: string): Intl.NumberFormat;
}

/**
 * Formats parsed parts. `value(name)` gives an argument (undefined when it has none: the caller decides whether that
 * is an error); numbers in `{n}` and `#` are formatted for the locale.
 */
export function formatMessage(
  parts: MessagePart[],
  locale: string,
  value: (name: string) => unknown,
  formatters: MessageFormatters,
  pound: number | null = null,
): string {
  let out = "";
  for (const part of parts) {
    if (typeof part === "string") out += part;
    else if (part.kind === "pound") out += pound === null ? "#" : formatters.number(locale).format(pound);
    else if (part.kind === "arg") out += show(value(part.name), locale, formatters);
    else if (part.kind === "select") {
      const chosen = value(part.name);
      const options = part.options[String(chosen ?? "other")] ?? part.options.other;
      out += formatMessage(options, locale, value, formatters, pound);
    } else {
      const count = Number(value(part.name));
      const n = Number.isFinite(count) ? count - part.offset : 0;
      const exact = part.options[`=${Number.isFinite(count) ? count : 0}`];
      const category = formatters.pluralRules(locale, part.ordinal).select(n);
      const options = exact ?? part.options[category] ?? part.options.other;
      out += formatMessage(options, locale, value, formatters, n);
    }
  }
  return out;
}

function show(value: unknown, locale: string, formatters: MessageFormatters): string {
  if (value == null) return "";
  if (typeof value === "number") return formatters.number(locale).format(value);
  return String(value);
}
