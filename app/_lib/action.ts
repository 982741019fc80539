import "server-only";
import type { z } from "zod";
import type { Role } from "@/lib/access/roles.shared";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/validation.shared";
import type { ActionFailure, ActionState } from "./action-state.shared";
import { requireDashboard, type DashboardContext } from "./dashboard-context";

// One way for server actions (docs/architecture.md#dashboard-actions). They used to turn errors into
// form state in eight slightly different ways; now each is: who may (requireDashboard with the role),
// parse (the zod schema through parseInput, so a refusal names the field), the use case, and an
// AppError becomes `{ ok: false, error, field }`. Anything else (redirect(), notFound(), forbidden(),
// a bug) keeps propagating, so Next answers it. Our own ~60 lines rather than next-safe-action: this is
// all we need, and it keeps the house's AppError and context.

export type { ActionFailure, ActionState, ActionSuccess, FormState } from "./action-state.shared";

interface Steps<S extends z.ZodType, C, T extends object> {
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

async function steps<S extends z.ZodType, C, T extends object>(context: C, options: Steps<S, C, T>): Promise<ActionState<T>> {
  try {
    const input = (options.schema ? parseInput(options.schema, options.input) : options.input) as z.output<S>;
    return { ok: true, ...(await options.run(input, context)) };
  } catch (error) {
    return failure(error, options.values);
  }
}

/** A dashboard action: signed in (else /login), at least `role` in the current workspace (else 403). */
export async function dashboardAction<S extends z.ZodType, T extends object>(
  options: Steps<S, DashboardContext, T> & { role?: Role },
): Promise<ActionState<T>> {
  const context = await requireDashboard(options.role ?? "MEMBER");
  return steps(context, options);
}

/** An action of the sign-in pages (or sign-out): no workspace yet, so who it is, if anyone, is the action's to ask. */
export async function publicAction<S extends z.ZodType, T extends object>(options: Steps<S, void, T>): Promise<ActionState<T>> {
  return steps(undefined, options);
}

/** Form fields as plain strings (files and repeats are not used by these forms). */
export function formValues(form: FormData, names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, String(form.get(name) ?? "")]));
}
