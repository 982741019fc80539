import { AsyncLocalStorage } from "node:async_hooks";
import { processSingleton } from "@/lib/foundation/process-singleton";
import { traceLogFields } from "@/lib/foundation/tracing";

// One-line JSON logs; the caller passes LOG_LEVEL in (setLogLevel), so this module stays import-safe in scripts and tests.
type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

let threshold = ORDER[(process.env.LOG_LEVEL as Level) ?? "info"] ?? ORDER.info;

export function setLogLevel(level: Level | "silent"): void {
  threshold = ORDER[level];
}

// Fields (a request id) every line inside withLogFields carries; one store per process, so every bundled copy reads it.
const context = processSingleton("log.context", () => new AsyncLocalStorage<Record<string, unknown>>());

export function withLogFields<T>(fields: Record<string, unknown>, work: () => T): T {
  return context.run({ ...context.getStore(), ...fields }, work);
}

/** The fields of the surrounding withLogFields, if any (the request id for a response header). */
export function logFields(): Record<string, unknown> {
  return context.getStore() ?? {};
}

function write(level: Level, message: string, fields?: Record<string, unknown>): void {
  if (ORDER[level] < threshold) return;
  // Inside a span (with tracing on), the line names its trace and span: a log search leads to the trace.
  const line = JSON.stringify({
    time: new Date().toISOString(),
    level,
    message,
    ...context.getStore(),
    ...traceLogFields(),
    ...fields,
  });
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(line + "\n");
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};

/** An error as log fields: its message (a plain object's JSON), the first code in its cause chain, and with `stack` its stack. */
export function errorFields(error: unknown, options: { stack?: boolean } = {}): { error: string; code?: string } {
  let code: string | undefined;
  let current: unknown = error;
  for (let depth = 0; current && typeof current === "object" && depth < 5 && !code; depth++) {
    const value = (current as { code?: unknown }).code;
    if (typeof value === "string" || typeof value === "number") code = String(value);
    current = (current as { cause?: unknown }).cause;
  }
  let text: string;
  if (error instanceof Error) text = (options.stack && error.stack) || `${error.name}: ${error.message}`;
  else if (error && typeof error === "object") text = safeJson(error);
  else text = String(error);
  return code ? { error: text, code } : { error: text };
}

function safeJson(value: object): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
