/**
 * The messages between the process's main thread and the thread that holds its embedded database
 * (docs/architecture.md#the-embedded-database-on-its-own-thread). Every value crosses by structured clone:
 * rows, Dates, byte arrays and bigints survive it; functions (per-query parsers) and an error's own fields do not,
 * so the instance carries the parsers and errors cross as plain fields.
 */

/** What the main thread asks; `tx` names the open transaction a statement belongs to (none: a standalone one). */
export type ThreadRequest =
  | { op: "query"; id: number; tx?: number; text: string; params?: unknown[]; rowMode?: "array" | "object" }
  | { op: "exec"; id: number; tx?: number; text: string }
  | { op: "runNamed"; id: number; tx?: number; text: string; params: unknown[] }
  | { op: "begin"; id: number }
  | { op: "end"; id: number; tx: number; commit: boolean }
  | { op: "listen"; id: number; channel: string }
  | { op: "unlisten"; id: number; listener: number }
  | { op: "close"; id: number };

/** What the thread answers: a reply to a request, a notification for a listener, or that it is ready. */
export type ThreadReply =
  | { kind: "ready" }
  | { kind: "opened-failed"; error: CrossedError }
  | { kind: "reply"; id: number; value?: unknown; error?: CrossedError }
  | { kind: "notify"; listener: number; payload: string };

/** What the thread is started with (its `workerData`). */
export interface ThreadOptions {
  dataDir: string;
}

/** An error as plain fields: PostgreSQL's (code, detail, constraint, …) are what callers read. */
export interface CrossedError {
  name: string;
  message: string;
  stack?: string;
  fields: Record<string, unknown>;
}

export function crossError(error: unknown): CrossedError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === "function" || typeof value === "object") continue;
    fields[key] = value;
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

/** The error again on this side, with PostgreSQL's fields, and the stack of where it was awaited here. */
export function uncrossError(crossed: CrossedError): Error {
  const error = Object.assign(new Error(crossed.message), crossed.fields);
  Object.defineProperty(error, "name", { value: crossed.name, enumerable: false, configurable: true });
  return error;
}
