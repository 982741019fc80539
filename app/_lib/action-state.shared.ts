/**
 * What every server action of the app answers (app/_lib/action.ts builds it): the outcome, or the
 * use case's AppError in words, naming the field at fault. Pure types, so client components read them.
 */
export type ActionFailure = {
  ok: false;
  error: string;
  field?: string;
  /** What was typed (never a password), so the form shows it again after a refusal. */
  values?: Record<string, string>;
};

export type ActionSuccess<T extends object = object> = { ok: true; error?: undefined; field?: undefined } & T;

export type ActionState<T extends object = object> = ActionSuccess<T> | ActionFailure;

/** A form's state before its first submit: `useActionState(action, {})`. */
export type IdleState = { ok?: undefined; error?: undefined; field?: undefined; values?: undefined };

/** The usual form: a confirmation to show, and after an edit the values as saved. */
export type FormState<T extends object = { message?: string; values?: Record<string, string> }> =
  ActionState<T> | IdleState;
