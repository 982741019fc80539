"use server";

import { revalidatePath } from "next/cache";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import type { SettingsFormState } from "@/components/settings/form-state.shared";
import { AppError } from "@/lib/errors";
import type { Actor } from "@/lib/access/actor";
import { changeMemberRole } from "@/lib/members/change-member-role";
import { inviteMember } from "@/lib/members/invite-member";
import { removeMember } from "@/lib/members/remove-member";
import { revokeInvitation } from "@/lib/members/revoke-invitation";
import type { Role } from "@/lib/access/roles.shared";
import { updateWorkspaceSettings } from "@/lib/workspaces/update-workspace-settings";

/**
 * Every settings change: ADMIN+ checked here (a Member gets the 403 page) and again by the use case;
 * the workspace is always the one the session's context resolved, never one named by the form.
 */
async function asAdmin(values: Record<string, string>, work: (actor: Actor) => Promise<string>): Promise<SettingsFormState> {
  const context = await requireDashboard("ADMIN");
  const actor: Actor = { userId: context.user.id, workspaceId: context.workspace.id, role: context.role };
  try {
    const ok = await work(actor);
    revalidatePath("/", "layout");
    return { ok };
  } catch (error) {
    if (error instanceof AppError) return { error: error.message, param: error.param, values };
    throw error;
  }
}

const text = (form: FormData, name: string) => String(form.get(name) ?? "");

export async function saveGeneral(_previous: SettingsFormState, form: FormData): Promise<SettingsFormState> {
  const name = text(form, "name");
  return asAdmin({ name }, async (actor) => {
    await updateWorkspaceSettings(actor, { name });
    return "Saved.";
  });
}

export async function saveSending(_previous: SettingsFormState, form: FormData): Promise<SettingsFormState> {
  const testMode = form.get("testMode") === "on";
  const trackingEnabled = form.get("trackingEnabled") === "on";
  return asAdmin({}, async (actor) => {
    await updateWorkspaceSettings(actor, { testMode, trackingEnabled });
    return "Saved.";
  });
}

export async function inviteAction(_previous: SettingsFormState, form: FormData): Promise<SettingsFormState> {
  const values = { email: text(form, "email"), role: text(form, "role") };
  return asAdmin(values, async (actor) => {
    const invitation = await inviteMember(actor, { email: values.email, role: values.role as Role });
    return `Invitation sent to ${invitation.email}.`;
  });
}

export async function revokeInvitationAction(_previous: SettingsFormState, form: FormData): Promise<SettingsFormState> {
  return asAdmin({}, async (actor) => {
    await revokeInvitation(actor, text(form, "invitationId"));
    return "Invitation revoked.";
  });
}

export async function changeRoleAction(_previous: SettingsFormState, form: FormData): Promise<SettingsFormState> {
  const values = { role: text(form, "role") };
  return asAdmin(values, async (actor) => {
    await changeMemberRole(actor, { userId: text(form, "userId"), role: values.role as Role });
    return "Role changed.";
  });
}

export async function removeMemberAction(_previous: SettingsFormState, form: FormData): Promise<SettingsFormState> {
  return asAdmin({}, async (actor) => {
    await removeMember(actor, text(form, "userId"));
    return "Member removed.";
  });
}
