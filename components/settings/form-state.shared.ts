/** What every settings server action answers: a confirmation, or the error next to its field, plus what was typed. */
export interface SettingsFormState {
  ok?: string;
  error?: string;
  param?: string;
  values?: Record<string, string>;
}

export type SettingsAction = (previous: SettingsFormState, form: FormData) => Promise<SettingsFormState>;
