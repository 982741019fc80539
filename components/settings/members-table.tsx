import { Badge } from "@/components/ui/badge";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { ROLE_LABELS, type Role } from "@/lib/foundation/access/roles.shared";
import type { SettingsAction } from "./form-state.shared";
import { MemberActions } from "./member-actions";
import { RevokeInvitationButton } from "./revoke-invitation-button";

interface Member {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  joinedAt: Date;
}

interface Invitation {
  id: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  expiresAt: Date;
}

interface Props {
  members: Member[];
  invitations: Invitation[];
  currentUserId: string;
  viewerRole: Role;
  actions: { changeRole: SettingsAction; remove: SettingsAction; revoke: SettingsAction } | null;
}

/** Members with their roles, then pending invitations; controls only for admins, owner rows only for owners. */
export function MembersTable({ members, invitations, currentUserId, viewerRole, actions }: Props) {
  const grantable: Role[] = viewerRole === "OWNER" ? ["MEMBER", "ADMIN", "OWNER"] : ["MEMBER", "ADMIN"];
  return (
    <div className="space-y-4">
      <Table label="Members">
        <THead>
          <Th>Member</Th>
          <Th>Role</Th>
          <Th>Joined</Th>
          {actions ? <Th>Manage</Th> : null}
        </THead>
        <TBody>
          {members.map((member) => (
            <tr key={member.userId} data-testid="member-row">
              <Td>
                <div className="font-medium text-slate-900">{member.name ?? member.email}</div>
                {member.name ? <div className="text-xs text-slate-500">{member.email}</div> : null}
                {member.userId === currentUserId ? <div className="text-xs text-slate-500">(you)</div> : null}
              </Td>
              <Td>
                <Badge tone={member.role === "OWNER" ? "info" : "neutral"}>{ROLE_LABELS[member.role]}</Badge>
              </Td>
              <Td className="whitespace-nowrap text-slate-600">
                <Timestamp value={member.joinedAt} />
              </Td>
              {actions ? (
                <Td>
                  {member.role !== "OWNER" || viewerRole === "OWNER" ? (
                    <MemberActions
                      userId={member.userId}
                      email={member.email}
                      role={member.role}
                      roles={grantable}
                      changeRole={actions.changeRole}
                      remove={actions.remove}
                    />
                  ) : (
                    <span className="text-xs text-slate-500">Only owners manage owners</span>
                  )}
                </Td>
              ) : null}
            </tr>
          ))}
        </TBody>
      </Table>
      <div>
        <h3 className="mb-2 text-sm font-semibold text-slate-900">Pending invitations</h3>
        {invitations.length === 0 ? (
          <p className="text-sm text-slate-500">No pending invitations.</p>
        ) : (
          <Table label="Pending invitations">
            <THead>
              <Th>Email</Th>
              <Th>Role</Th>
              <Th>Invited by</Th>
              <Th>Expires</Th>
              {actions ? <Th>Manage</Th> : null}
            </THead>
            <TBody>
              {invitations.map((invitation) => (
                <tr key={invitation.id} data-testid="invitation-row">
                  <Td className="font-medium text-slate-900">{invitation.email}</Td>
                  <Td>{ROLE_LABELS[invitation.role]}</Td>
                  <Td className="text-slate-600">{invitation.invitedBy ?? "—"}</Td>
                  <Td className="whitespace-nowrap text-slate-600">
                    <Timestamp value={invitation.expiresAt} />
                  </Td>
                  {actions ? (
                    <Td>
                      <RevokeInvitationButton
                        invitationId={invitation.id}
                        email={invitation.email}
                        action={actions.revoke}
                      />
                    </Td>
                  ) : null}
                </tr>
              ))}
            </TBody>
          </Table>
        )}
      </div>
    </div>
  );
}
