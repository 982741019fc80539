import type { z } from "zod";
import { AppError, invalidParameter, type ErrorCode } from "@/lib/errors";

/** `["attachments", 0, "name"]` → `attachments[0].name`. */
export function formatParam(path: ReadonlyArray<PropertyKey>, prefix = ""): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** The first issue of a failed parse as an AppError naming the field. */
export function zodToAppError(error: z.ZodError, code: ErrorCode = "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", prefix = ""): AppError {
  const issue = error.issues[0];
  const param = formatParam(issue.path, prefix) || undefined;
  const message = param ? `Invalid ${param}: ${issue.message}.` : `Invalid request body: ${issue.message}.`;
  return new AppError(code, message.replace(/\.\.$/, "."), { param });
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
