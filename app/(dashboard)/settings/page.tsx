import type { Metadata } from "next";
import { connection } from "next/server";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { GeneralForm } from "@/components/settings/general-form";
import { DefaultLocaleForm } from "@/components/settings/locale-form";
import { InviteForm } from "@/components/settings/invite-form";
import { MembersTable } from "@/components/settings/members-table";
import { SendingForm } from "@/components/settings/sending-form";
import { EraseMessageCard } from "@/components/sending/erase-message-card";
import { SendingCard } from "@/components/sending/sending-card";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { DescriptionList } from "@/components/ui/description-list";
import { PageHeader } from "@/components/ui/page-header";
import { listPendingInvitations } from "@/lib/flows/members/list-invitations";
import { listMembers } from "@/lib/flows/members/list-members";
import { hasRole, ROLE_LABELS } from "@/lib/foundation/access/roles.shared";
import { getSendingState } from "@/lib/domain/workspaces/get-sending-state";
import { getWorkspaceSettings } from "@/lib/domain/workspaces/update-workspace-settings";
import {
  changeRoleAction,
  inviteAction,
  removeMemberAction,
  revokeInvitationAction,
  saveDefaultLocale,
  saveGeneral,
  saveSending,
} from "./actions";
import { discardPausedAction, eraseMessageAction, pauseSendingAction, resumeSendingAction } from "./sending-actions";

export const metadata: Metadata = { title: "Settings" };

const onOff = (on: boolean) => <Badge tone={on ? "success" : "neutral"}>{on ? "On" : "Off"}</Badge>;

// Everyone in the workspace sees its settings; only admins get the controls (the actions re-check).
export default async function SettingsPage() {
  await connection();
  const { user, workspace, role } = await requireDashboard();
  const [settings, sending, members, invitations] = await Promise.all([
    getWorkspaceSettings(workspace.id),
    getSendingState(workspace.id),
    listMembers(workspace.id),
    listPendingInvitations(workspace.id),
  ]);
  const canEdit = hasRole(role, "ADMIN");
  return (
    <div>
      <PageHeader
        title="Settings"
        description={
          canEdit
            ? `Settings of ${settings.name}.`
            : `Settings of ${settings.name}. You are a ${ROLE_LABELS[role].toLowerCase()}: ask an admin to change them.`
        }
      />
      <div className="space-y-6">
        <Card title="General" id="general">
          {canEdit ? (
            <GeneralForm name={settings.name} action={saveGeneral} />
          ) : (
            <DescriptionList terms="words" items={[{ term: "Workspace name", value: settings.name }]} />
          )}
        </Card>
        <Card title="Sending" id="sending" description="How live messages of this workspace are sent.">
          {canEdit ? (
            <SendingForm
              testMode={settings.testMode}
              trackingEnabled={settings.trackingEnabled}
              locked={settings.system}
              action={saveSending}
            />
          ) : (
            <DescriptionList
              terms="words"
              items={[
                { term: "Test mode", value: onOff(settings.testMode) },
                { term: "Tracking", value: onOff(settings.trackingEnabled) },
              ]}
            />
          )}
        </Card>
        <Card
          title="Language"
          id="language"
          description="The locale a template send asks for when neither the send nor its contact names one; the template's variants then fall back as usual."
        >
          {canEdit ? (
            <DefaultLocaleForm defaultLocale={settings.defaultLocale} action={saveDefaultLocale} />
          ) : (
            <DescriptionList
              terms="words"
              items={[{ term: "Default locale", value: settings.defaultLocale ?? "None (each template's default)" }]}
            />
          )}
        </Card>
        <SendingCard
          sending={{ ...sending, pausedAt: sending.pausedAt?.toISOString() ?? null }}
          canEdit={canEdit}
          actions={{ pause: pauseSendingAction, resume: resumeSendingAction, discard: discardPausedAction }}
        />
        <Card
          title="Members & invitations"
          id="members"
          description="Owners manage owners; admins manage members, admins and invitations."
        >
          <div className="space-y-5">
            {canEdit ? (
              <InviteForm
                roles={role === "OWNER" ? ["MEMBER", "ADMIN", "OWNER"] : ["MEMBER", "ADMIN"]}
                action={inviteAction}
              />
            ) : null}
            <MembersTable
              members={members}
              invitations={invitations}
              currentUserId={user.id}
              viewerRole={role}
              actions={
                canEdit
                  ? { changeRole: changeRoleAction, remove: removeMemberAction, revoke: revokeInvitationAction }
                  : null
              }
            />
          </div>
        </Card>
        {canEdit ? <EraseMessageCard action={eraseMessageAction} /> : null}
      </div>
    </div>
  );
}
