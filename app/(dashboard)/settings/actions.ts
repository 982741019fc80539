"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction } from "@/app/_lib/action";
import { dashboardActor } from "@/app/_lib/audit-actor";
import {
  invitationNotice,
  type InviteFormState,
  type SettingsFormState,
} from "@/components/settings/form-state.shared";
import type { Actor } from "@/lib/foundation/access/actor";
import { changeMemberRole } from "@/lib/flows/members/change-member-role";
import { inviteMember } from "@/lib/flows/members/invite-member";
import { removeMember } from "@/lib/flows/members/remove-member";
import { revokeInvitation } from "@/lib/flows/members/revoke-invitation";
import type { Role } from "@/lib/foundation/access/roles.shared";
import { updateWorkspaceSettings } from "@/lib/domain/workspaces/update-workspace-settings";

/**
 * Every settings change: ADMIN+ checked here (a Member gets the 403 page) and again by the use case;
 * the workspace is always the one the session's context resolved, never one named by the form.
 */
async function asAdmin(
  values: Record<string, string>,
  work: (actor: Actor) => Promise<string>,
): Promise<SettingsFormState> {
  return dashboardAction({
    role: "ADMIN",
    values,
    run: async (_input, context) => {
      const audit = await dashboardActor(context.user);
      const message = await work({
        userId: context.user.id,
        workspaceId: context.workspace.id,
        role: context.role,
        audit,
      });
      revalidatePath("/", "layout");
      return { message };
    },
  });
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

/** Sets or clears (empty) the locale a send asks for when neither it nor its contact names one. */
export async function saveDefaultLocale(_previous: SettingsFormState, form: FormData): Promise<SettingsFormState> {
  const defaultLocale = text(form, "defaultLocale").trim();
  return asAdmin({ defaultLocale }, async (actor) => {
    const saved = await updateWorkspaceSettings(actor, { defaultLocale: defaultLocale === "" ? null : defaultLocale });
    return saved.defaultLocale
      ? `Saved: sends that name no locale, to contacts without one, ask for ${saved.defaultLocale}.`
      : "Cleared: such sends render in each template's default locale.";
  });
}

/** A window typed in days; empty follows the instance default. Not a number (NaN) is refused by the schema, naming it. */
function daysOrNull(value: string): number | null {
  return value.trim() === "" ? null : Number(value.trim());
}

/** The retention windows and the legal hold (docs/retention.md), in one save, audited as workspace.update. */
export async function saveRetention(_previous: SettingsFormState, form: FormData): Promise<SettingsFormState> {
  const values = {
    bodyRetentionDays: text(form, "bodyRetentionDays"),
    metadataRetentionDays: text(form, "metadataRetentionDays"),
  };
  const legalHold = form.get("legalHold") === "on";
  return asAdmin(values, async (actor) => {
    const saved = await updateWorkspaceSettings(actor, {
      bodyRetentionDays: daysOrNull(values.bodyRetentionDays),
      metadataRetentionDays: daysOrNull(values.metadataRetentionDays),
      legalHold,
    });
    return saved.legalHold ? "Saved. Legal hold is on: nothing is purged until it is lifted." : "Saved.";
  });
}

/** Says where the mail went; with the local provider (no real delivery) it also hands back the link to copy. */
export async function inviteAction(_previous: InviteFormState, form: FormData): Promise<InviteFormState> {
  const values = { email: text(form, "email"), role: text(form, "role") };
  return dashboardAction({
    role: "ADMIN",
    values,
    run: async (_input, context) => {
      const actor = {
        userId: context.user.id,
        workspaceId: context.workspace.id,
        role: context.role,
        audit: await dashboardActor(context.user),
      };
      const invitation = await inviteMember(actor, { email: values.email, role: values.role as Role });
      revalidatePath("/", "layout");
      return {
        message: invitationNotice(invitation.email, invitation.localLink !== null),
        link: invitation.localLink ?? undefined,
      };
    },
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
