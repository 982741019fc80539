import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { GroupForm } from "@/components/groups/group-form";
import { Card } from "@/components/ui/card";
import { DescriptionList } from "@/components/ui/description-list";
import { PageHeader } from "@/components/ui/page-header";
import { Timestamp } from "@/components/ui/timestamp";
import { getUnsubscribeGroup } from "@/lib/domain/contacts/get-unsubscribe-group";
import { GROUP_MESSAGE_COUNT_CAP } from "@/lib/domain/contacts/list-unsubscribe-groups";
import { hasRole } from "@/lib/foundation/access/roles.shared";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { updateGroupAction } from "../actions";

type Props = { params: Promise<{ id: string }> };

export const metadata: Metadata = { title: "Unsubscribe group" };

// One group: its counts, and for admins the edit form. Another workspace's id is a 404.
export default async function GroupPage({ params }: Props) {
  await connection();
  const { id } = await params;
  const { workspace, role } = await requireDashboard();
  const group = await getUnsubscribeGroup(workspace.id, id);
  if (!group) notFound();
  const count = (value: number) => (value > GROUP_MESSAGE_COUNT_CAP ? `${GROUP_MESSAGE_COUNT_CAP}+` : String(value));
  return (
    <div className="space-y-6">
      <Link href="/groups" className="text-sm text-indigo-600 hover:underline">
        ← All groups
      </Link>
      <PageHeader title={group.name} description={<span className="font-mono text-xs">{group.id}</span>} />
      <Card title="Group" id="group">
        <DescriptionList
          terms="words"
          items={[
            { term: "Key", value: <span className="font-mono text-xs">{group.key}</span> },
            { term: "Unsubscribed contacts", value: count(group.unsubscribedCount) },
            { term: "Messages sent", value: count(group.messageCount) },
            { term: "Created", value: <Timestamp value={group.createdAt} /> },
            { term: "Last changed", value: <Timestamp value={group.updatedAt} /> },
          ]}
        />
      </Card>
      {hasRole(role, "ADMIN") ? (
        <Card title="Edit" id="edit-group">
          <GroupForm
            action={updateGroupAction}
            group={{ id: group.id, key: group.key, name: group.name }}
            keyLocked={group.keyLocked}
          />
        </Card>
      ) : null}
    </div>
  );
}
