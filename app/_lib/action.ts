import "server-only";
import type { z } from "zod";
import type { Role } from "@/lib/foundation/access/roles.shared";
import type { ActionState } from "./action-state.shared";
import { steps, type Steps } from "./action-steps";
import { requireDashboard, type DashboardContext } from "./dashboard-context";

// One way for server actions (docs/architecture.md#dashboard-actions). They used to turn errors into
// form state in eight slightly different ways; now each is: who may (requireDashboard with the role),
// parse (the zod schema through parseInput, so a refusal names the field), the use case, and an
// AppError becomes `{ ok: false, error, field }`. Anything else (redirect(), notFound(), forbidden(),
// a bug) keeps propagating, so Next answers it. Our own ~60 lines rather than next-safe-action: this is
// all we need, and it keeps the house's AppError and context.

export type { ActionFailure, ActionState, ActionSuccess, FormState } from "./action-state.shared";

/** A dashboard action: signed in (else /login), at least `role` in the current workspace (else 403). */
export async function dashboardAction<S extends z.ZodType, T extends object>(
  options: Steps<S, DashboardContext, T> & { role?: Role },
): Promise<ActionState<T>> {
  const context = await requireDashboard(options.role ?? "MEMBER");
  return steps(context, options);
}

/** An action of the sign-in pages (or sign-out): no workspace yet, so who it is, if anyone, is the action's to ask. */
export async function publicAction<S extends z.ZodType, T extends object>(
  options: Steps<S, void, T>,
): Promise<ActionState<T>> {
  return steps(undefined, options);
}

/** Form fields as plain strings (files and repeats are not used by these forms). */
export function formValues(form: FormData, names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, String(form.get(name) ?? "")]));
}
