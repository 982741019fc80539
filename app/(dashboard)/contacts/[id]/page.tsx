import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { AddSuppressionForm } from "@/components/contacts/add-suppression-form";
import { ContactLocaleForm } from "@/components/contacts/contact-locale-form";
import { RemoveSuppressionButton } from "@/components/contacts/remove-suppression-button";
import { SuppressionReasonBadge } from "@/components/contacts/suppression-reason-badge";
import { MessageTable } from "@/components/messages/message-table";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { DescriptionList } from "@/components/ui/description-list";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { CONTACT_MESSAGES_MAX, getContactDetail } from "@/lib/domain/contacts/get-contact-detail";
import { hasRole } from "@/lib/foundation/access/roles.shared";
import { listTemplateNames } from "@/lib/domain/templates/list-template-names";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { addSuppressionAction, removeSuppressionAction, setContactLocaleAction } from "../actions";

type Props = { params: Promise<{ id: string }> };

export const metadata: Metadata = { title: "Contact" };

// One contact: what was sent to it, which groups it left, and whether it is suppressed.
export default async function ContactPage({ params }: Props) {
  await connection();
  const { id } = await params;
  const { workspace, role } = await requireDashboard();
  const detail = await getContactDetail(workspace.id, id);
  if (!detail) notFound();
  const { contact, messages, groups, suppression } = detail;
  const templateNames = await listTemplateNames(
    workspace.id,
    messages.map((message) => message.templateId),
  );
  const canManage = hasRole(role, "ADMIN");
  return (
    <div className="space-y-6">
      <Link href="/contacts" className="text-sm text-indigo-600 hover:underline">
        ← All contacts
      </Link>
      <PageHeader
        title={<span className="break-all">{contact.email}</span>}
        description={contact.name ?? undefined}
        actions={suppression ? <Badge tone="danger">Suppressed</Badge> : <Badge tone="success">Receives mail</Badge>}
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Contact" id="contact">
          <DescriptionList
            terms="words"
            items={[
              { term: "Id", value: <span className="font-mono text-xs break-all">{contact.id}</span> },
              { term: "Email", value: contact.email },
              { term: "Name", value: contact.name ?? "—" },
              { term: "Locale", value: <span data-testid="contact-locale">{contact.locale ?? "—"}</span> },
              { term: "Added", value: <Timestamp value={contact.createdAt} /> },
              { term: "Last changed", value: <Timestamp value={contact.updatedAt} /> },
            ]}
          />
          {canManage ? (
            <div className="mt-4">
              <ContactLocaleForm action={setContactLocaleAction} contactId={contact.id} locale={contact.locale} />
            </div>
          ) : null}
        </Card>
        <Card title="Suppression" id="suppression">
          {suppression ? (
            <div className="space-y-3 text-sm" data-testid="contact-suppressed">
              <p>
                <SuppressionReasonBadge reason={suppression.reason} /> since <Timestamp value={suppression.createdAt} />
              </p>
              {suppression.detail ? <p className="text-slate-600">{suppression.detail}</p> : null}
              {canManage ? <RemoveSuppressionButton email={contact.email} action={removeSuppressionAction} /> : null}
            </div>
          ) : (
            <div className="space-y-3 text-sm">
              <p className="text-slate-600" data-testid="contact-not-suppressed">
                Not on the suppression list: live messages are sent.
              </p>
              {canManage ? <AddSuppressionForm action={addSuppressionAction} defaultEmail={contact.email} /> : null}
            </div>
          )}
        </Card>
      </div>
      <Card
        title="Unsubscribe groups"
        id="groups"
        description="Messages sent with a group the contact left are suppressed for this contact."
      >
        {groups.length === 0 ? (
          <p className="text-sm text-slate-600">
            The workspace has no unsubscribe groups.{" "}
            <Link href="/groups" className="text-indigo-600 hover:underline">
              Create one
            </Link>
            .
          </p>
        ) : (
          <Table label="Unsubscribe state per group">
            <THead>
              <Th>Group</Th>
              <Th>Key</Th>
              <Th>State</Th>
            </THead>
            <TBody>
              {groups.map((group) => (
                <tr key={group.id}>
                  <Td>{group.name}</Td>
                  <Td className="font-mono text-xs">{group.key}</Td>
                  <Td>
                    {group.unsubscribedAt ? (
                      <span className="inline-flex flex-wrap items-center gap-2">
                        <Badge tone="warning">Unsubscribed</Badge>
                        <Timestamp value={group.unsubscribedAt} />
                      </span>
                    ) : (
                      <Badge tone="success">Subscribed</Badge>
                    )}
                  </Td>
                </tr>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
      <section aria-labelledby="messages-title" className="space-y-3">
        <h2 id="messages-title" className="text-sm font-semibold text-slate-900">
          Messages to {contact.email}
          <span className="ml-2 font-normal text-slate-500">
            {messages.length === CONTACT_MESSAGES_MAX ? `the latest ${CONTACT_MESSAGES_MAX}` : `${messages.length}`},
            newest first
          </span>
        </h2>
        {messages.length === 0 ? (
          <EmptyState title="No messages to this address">Only messages with the address in To are listed.</EmptyState>
        ) : (
          <MessageTable rows={messages} templateNames={templateNames} label="Messages to this contact, newest first" />
        )}
      </section>
    </div>
  );
}
