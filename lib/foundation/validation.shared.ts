import type { z } from "zod";
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
