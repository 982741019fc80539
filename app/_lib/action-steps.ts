import type { z } from "zod";
import { assertSafeJson } from "@/lib/entry/api/input-guard";
import { AppError } from "@/lib/foundation/errors";
import { parseInput } from "@/lib/foundation/validation.shared";
import type { ActionFailure, ActionState } from "./action-state.shared";

// The steps every server action takes after its access check (./action.ts): kept apart from the
// access check, which needs the Auth.js session, so they are testable on their own.

export interface Steps<S extends z.ZodType, C, T extends object> {
  /** Validates `input`; a problem becomes the failure naming its field. */
  schema?: S;
  input?: unknown;
  /** Echoed on failure so the form keeps what was typed. */
  values?: Record<string, string>;
  run: (input: z.output<S>, context: C) => Promise<T>;
}

/** The use case's AppError as form state; anything that is not an AppError is re-thrown. */
function failure(error: unknown, values?: Record<string, string>): ActionFailure {
  if (!(error instanceof AppError)) throw error;
  const state: ActionFailure = { ok: false, error: error.message };
  if (error.param !== undefined) state.field = error.param;
  if (values) state.values = values;
  return state;
}

export async function steps<S extends z.ZodType, C, T extends object>(
  context: C,
  options: Steps<S, C, T>,
): Promise<ActionState<T>> {
  try {
    // The API's edge rule (docs/api.md#hostile-input) holds for forms too: a NUL would reach
    // PostgreSQL as a 500 page, and a deep structure would reach recursive code.
    if (options.input !== undefined) assertSafeJson(options.input);
    const input = (options.schema ? parseInput(options.schema, options.input) : options.input) as z.output<S>;
    return { ok: true, ...(await options.run(input, context)) };
  } catch (error) {
    return failure(error, options.values);
  }
}
