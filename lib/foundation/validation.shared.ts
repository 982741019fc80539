import { z } from "zod";
import { AppError, invalidParameter, type ErrorCode } from "@/lib/foundation/errors";

/** `["attachments", 0, "name"]` → `attachments[0].name`. */
export function formatParam(path: ReadonlyArray<PropertyKey>, prefix = ""): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** The first issue of a failed parse as an AppError naming the field, in the API's own words. */
export function zodToAppError(
  error: z.ZodError,
  code: ErrorCode = "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
  prefix = "",
): AppError {
  const issue = error.issues[0];
  const param = formatParam(issue.path, prefix) || undefined;
  return new AppError(code, describeIssue(issue, param), { param });
}

type Issue = z.ZodError["issues"][number];

/** How zod's own messages begin; a schema's custom message ("must be at least 1 second") is kept as written. */
const ZOD_DEFAULT_WORDING = /^(Invalid input|Too small|Too big|Invalid option)/;

/** A validator's issue in the API's words: the field, what was expected, an example where it helps, what came instead. */
function describeIssue(issue: Issue, param: string | undefined): string {
  const field = param ?? "The request body";
  if (!ZOD_DEFAULT_WORDING.test(issue.message))
    return `${param ? `Invalid ${param}` : "Invalid request body"}: ${issue.message}.`.replace(/\.\.$/, ".");
  const got = /received (\w+)/.exec(issue.message)?.[1];
  const instead = got ? `; got ${got === "undefined" ? "nothing" : `${article(got)} ${got}`}` : "";
  switch (issue.code) {
    case "invalid_type":
      return `${field} must be ${expected(issue.expected)}${exampleFor(param)}${instead}.`;
    case "invalid_union":
      return `${field} has the wrong type${exampleFor(param) || ""}${instead}.`;
    case "too_big":
      return `${field} must be at most ${issue.maximum} ${unitOf(issue.origin, issue.maximum)}.`;
    case "too_small":
      return `${field} must be at least ${issue.minimum} ${unitOf(issue.origin, issue.minimum)}.`;
    case "invalid_value":
      return `${field} must be one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}.`;
    default:
      return `${param ? `Invalid ${param}` : "Invalid request body"}: ${issue.message}.`.replace(/\.\.$/, ".");
  }
}

function expected(type: string): string {
  if (type === "record" || type === "object") return "a JSON object";
  if (type === "array") return "an array";
  return `${article(type)} ${type}`;
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? "an" : "a";
}

function unitOf(origin: string, count: number | bigint): string {
  const one = Number(count) === 1;
  if (origin === "string") return one ? "character" : "characters";
  if (origin === "array" || origin === "set") return one ? "item" : "items";
  if (origin === "number" || origin === "int" || origin === "bigint") return "(as a number)";
  return one ? "entry" : "entries";
}

const EXAMPLES: Record<string, string> = {
  to: '"Ada <ada@example.org>, bob@example.org" or ["ada@example.org"]',
  from: '"Acme <hello@acme.com>"',
  variables: '{ "name": "Ada" }',
  metadata: '{ "orderId": "1234" }',
  headers: '{ "references": "<id@example.com>" }',
  attachments: '[{ "name": "invoice.pdf", "contentType": "application/pdf", "contentBlob": "<base64>" }]',
};
EXAMPLES.cc = EXAMPLES.bcc = EXAMPLES.replyTo = EXAMPLES.to;

function exampleFor(param: string | undefined): string {
  const name = param
    ?.replace(/\[\d+\]$/, "")
    .split(".")
    .pop();
  const example = name ? EXAMPLES[name] : undefined;
  return example ? ` (e.g. ${example})` : "";
}

/** Explicit null means absent (docs/api.md#decided-envelope-ids-time): drop null-valued keys, one level deep and inside arrays of objects. */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (isPlainObject(item) ? dropNullKeys(item) : item));
  if (isPlainObject(value)) {
    const out = dropNullKeys(value);
    for (const [key, inner] of Object.entries(out)) {
      if (Array.isArray(inner)) out[key] = dropNulls(inner);
    }
    return out;
  }
  return value;
}

function dropNullKeys(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== null));
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Parses a form's input; the first problem becomes an AppError naming its field, with the schema's own sentence. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw invalidParameter(String(issue.path[0] ?? "body"), issue.message);
}

/** parseInput for a JSON body of the API: an unknown key is refused first (docs/api.md#unknown-fields). */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  assertKnownKeys(body, schema);
  return parseInput(schema, body);
}

/** What a zod schema says about one key's value: its object shape (checked recursively), or nothing to check. */
type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  in?: z.ZodType;
  /** A discriminated union's: the key whose literal picks the option (a workflow step's `type`). */
  discriminator?: string;
  options?: z.ZodType[];
  values?: unknown[];
};

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { def: Def }).def;
}

/**
 * The object schema a value must match, past optional/nullable/default/pipe wrappers, and for a discriminated union the
 * option the value's discriminator names; null when it is not a strict-by-default object (or names no option: the
 * schema then says what the discriminator may be).
 */
function objectShape(schema: z.ZodType, value?: unknown): Record<string, z.ZodType> | null {
  let def = defOf(schema);
  while (def.innerType || def.in) def = defOf((def.innerType ?? def.in)!);
  if (def.type === "union" && def.discriminator && def.options) {
    const key = def.discriminator;
    const tag = isPlainObject(value) ? value[key] : undefined;
    const option = def.options.find((candidate) => {
      const literal = objectShape(candidate)?.[key];
      return literal !== undefined && defOf(literal).values?.includes(tag) === true;
    });
    return option ? objectShape(option) : null;
  }
  if (def.type !== "object" || !def.shape) return null;
  // .passthrough()/.loose() objects take any key on purpose; .strict() ones are already refused by zod.
  if (def.catchall && defOf(def.catchall).type !== "never") return null;
  return def.shape;
}

function arrayElement(schema: z.ZodType): z.ZodType | null {
  let def = defOf(schema);
  while (def.innerType || def.in) def = defOf((def.innerType ?? def.in)!);
  return def.type === "array" && def.element ? def.element : null;
}

export interface KnownKeysOptions {
  code?: ErrorCode;
  /** Names the body's fields inside a larger one (`emailMessages[2]`). */
  prefix?: string;
  /** Keys that are real fields elsewhere: the sentence saying where they belong. */
  misplaced?: Record<string, string>;
}

/**
 * Refuses the first key the schema does not name, as Stripe does (docs/api.md#unknown-fields): an ignored typo
 * would otherwise send a different message than the caller meant. Records (variables, metadata) stay free-form.
 */
export function assertKnownKeys(value: unknown, schema: z.ZodType, options: KnownKeysOptions = {}): void {
  const shape = objectShape(schema, value);
  if (!shape || !isPlainObject(value)) return;
  const prefix = options.prefix ?? "";
  const known = Object.keys(shape);
  for (const [key, inner] of Object.entries(value)) {
    const param = formatParam([key], prefix);
    if (!Object.hasOwn(shape, key)) {
      const where = options.misplaced?.[key];
      const near = nearestKey(key, known);
      const hint =
        where ??
        (near
          ? `did you mean ${near}?`
          : known.length > 0
            ? `known fields are ${known.join(", ")}.`
            : "this operation takes no fields.");
      throw new AppError(options.code ?? "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", `Unknown field ${param}; ${hint}`, {
        param,
      });
    }
    const element = arrayElement(shape[key]);
    if (element && Array.isArray(inner)) {
      inner.forEach((item, index) =>
        assertKnownKeys(item, element, { code: options.code, prefix: formatParam([index], param) }),
      );
    } else {
      assertKnownKeys(inner, shape[key], { code: options.code, prefix: param });
    }
  }
}

/**
 * The known key a typo most likely meant: same letters in another case, or up to one edit per three letters (at
 * most two). Two equally near keys (`ccc`: cc or bcc?) suggest neither: a wrong guess misleads more than none.
 */
export function nearestKey(key: string, known: readonly string[]): string | null {
  const lower = key.toLowerCase();
  const allowed = Math.min(2, Math.floor(lower.length / 3));
  let best: string[] = [];
  let bestDistance = Infinity;
  for (const name of known) {
    const distance = editDistance(lower, name.toLowerCase());
    if (distance > allowed || distance > bestDistance) continue;
    best = distance < bestDistance ? [name] : [...best, name];
    bestDistance = distance;
  }
  return best.length === 1 ? best[0] : null;
}

/** Damerau-Levenshtein (optimal string alignment): a swapped pair of letters counts as one edit. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

/** The body of an operation that takes none (an empty object, or nothing): any key is refused by assertKnownKeys. */
export const NO_FIELDS = z.object({});
