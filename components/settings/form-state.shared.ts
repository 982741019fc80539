import type { FormState } from "@/app/_lib/action-state.shared";

/** What every settings server action answers (app/_lib/action.ts): a confirmation, or the error next to its field, plus what was typed. */
export type SettingsFormState = FormState;

export type SettingsAction = (previous: SettingsFormState, form: FormData) => Promise<SettingsFormState>;

/** The invite form's answer: the notice, and the link when the mail cannot reach the invitee (local provider). */
export type InviteFormState = FormState<{ message?: string; link?: string; values?: Record<string, string> }>;

export type InviteAction = (previous: InviteFormState, form: FormData) => Promise<InviteFormState>;

/** Where the invitation went: with the local provider nothing leaves the server, so say where to find it. */
export function invitationNotice(email: string, local: boolean): string {
  if (!local) return `Invitation sent to ${email}.`;
  return `Invitation sent to ${email}: with the local provider it is not delivered, it is in the System mail workspace's inbox. Copy the link to pass it on.`;
}
