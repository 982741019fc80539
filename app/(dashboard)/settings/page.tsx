import type { Metadata } from "next";
import { connection } from "next/server";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { GeneralForm } from "@/components/settings/general-form";
import { DefaultLocaleForm } from "@/components/settings/locale-form";
import { RetentionForm } from "@/components/settings/retention-form";
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
  saveRetention,
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
        <RetentionCard settings={settings} canEdit={canEdit} />
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

const daysWord = (days: number) => `${days} day${days === 1 ? "" : "s"}`;

/** How long this workspace's mail is kept and whether a legal hold stops the purges (docs/retention.md). */
function RetentionCard({
  settings,
  canEdit,
}: {
  settings: Awaited<ReturnType<typeof getWorkspaceSettings>>;
  canEdit: boolean;
}) {
  const { effective, limits } = settings.retention;
  return (
    <Card
      title="Retention"
      id="retention"
      description="How long this workspace keeps its mail. Bodies go first; the message, its timeline and its webhook log go at the second window, after which the API answers 410 for its id."
    >
      {canEdit ? (
        <RetentionForm
          bodyRetentionDays={settings.bodyRetentionDays}
          metadataRetentionDays={settings.metadataRetentionDays}
          legalHold={settings.legalHold}
          defaults={{
            bodyDays: limits.defaultBodyDays,
            metadataDays: limits.defaultMetadataDays,
            maxBodyDays: limits.maxBodyDays,
            maxMetadataDays: limits.maxMetadataDays,
          }}
          action={saveRetention}
        />
      ) : (
        <DescriptionList
          terms="words"
          items={[
            { term: "Bodies kept", value: daysWord(effective.bodyDays) },
            { term: "Messages and timelines kept", value: daysWord(effective.metadataDays) },
            { term: "Legal hold", value: onOff(settings.legalHold) },
          ]}
        />
      )}
    </Card>
  );
}
