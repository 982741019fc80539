import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { GroupForm } from "@/components/groups/group-form";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { GROUP_MESSAGE_COUNT_CAP, listUnsubscribeGroups } from "@/lib/domain/contacts/list-unsubscribe-groups";
import { hasRole } from "@/lib/foundation/access/roles.shared";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { createGroupAction } from "../actions";

export const metadata: Metadata = { title: "Unsubscribe groups" };

const formatCount = (count: number) =>
  count > GROUP_MESSAGE_COUNT_CAP
    ? `${GROUP_MESSAGE_COUNT_CAP.toLocaleString("en-US")}+`
    : count.toLocaleString("en-US");

// Kinds of mail a recipient can leave one by one (newsletter, product updates); transactional mail has none.
export default async function GroupsPage() {
  await connection();
  const { workspace, role } = await requireDashboard();
  const canManage = hasRole(role, "ADMIN");
  const groups = await listUnsubscribeGroups(workspace.id);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Unsubscribe groups"
        description="A message sent with a group carries an unsubscribe link for it; contacts who leave the group get no more messages of that group."
      />
      {canManage ? (
        <Card title="Create a group" id="create-group">
          <GroupForm action={createGroupAction} />
        </Card>
      ) : null}
      {groups.length === 0 ? (
        <EmptyState title="No unsubscribe groups yet">
          Send with groupKey or groupId to give recipients a way out of one kind of mail.
        </EmptyState>
      ) : (
        <Table label="Unsubscribe groups">
          <THead>
            <Th>Name</Th>
            <Th>Key</Th>
            <Th className="text-right">Unsubscribed</Th>
            <Th className="text-right">Messages sent</Th>
            <Th>Created</Th>
          </THead>
          <TBody>
            {groups.map((group) => (
              <tr key={group.id} data-testid={`group-${group.key}`}>
                <Td>
                  <Link href={`/groups/${group.id}`} className="font-medium text-indigo-600 hover:underline">
                    {group.name}
                  </Link>
                </Td>
                <Td className="font-mono text-xs">{group.key}</Td>
                <Td className="text-right tabular-nums" data-testid="unsubscribed-count">
                  {formatCount(group.unsubscribedCount)}
                </Td>
                <Td className="text-right tabular-nums" data-testid="message-count">
                  {formatCount(group.messageCount)}
                </Td>
                <Td className="whitespace-nowrap">
                  <Timestamp value={group.createdAt} />
                </Td>
              </tr>
            ))}
          </TBody>
        </Table>
      )}
    </div>
  );
}
