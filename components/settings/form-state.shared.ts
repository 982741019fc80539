import type { FormState } from "@/app/_lib/action-state.shared";

/** What every settings server action answers (app/_lib/action.ts): a confirmation, or the error next to its field, plus what was typed. */
export type SettingsFormState = FormState;

export type SettingsAction = (previous: SettingsFormState, form: FormData) => Promise<SettingsFormState>;
