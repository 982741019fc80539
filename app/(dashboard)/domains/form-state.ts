import type { z } from "zod";
import { AppError } from "@/lib/errors";

/** What a dashboard form action hands back: the error next to its field, and the values to show again. */
export interface FormState {
  error?: string;
  param?: string;
  values?: Record<string, string>;
  ok?: string;
}

/** Form fields as plain strings (files and repeats are not used by these forms). */
export function formValues(form: FormData, names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, String(form.get(name) ?? "")]));
}

/** Validates with a zod schema; the first problem becomes the field error. */
export function parseForm<T extends z.ZodType>(schema: T, values: Record<string, string>): { data: z.infer<T> } | { state: FormState } {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { data: parsed.data };
  const issue = parsed.error.issues[0];
  return { state: { error: issue.message, param: String(issue.path[0] ?? ""), values } };
}

/** AppErrors of the use case are the user's to fix; anything else is a bug and keeps propagating. */
export function appErrorState(error: unknown, values: Record<string, string>): FormState {
  if (error instanceof AppError) return { error: error.message, param: error.param, values };
  throw error;
}
