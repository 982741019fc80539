import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { AlphaPager } from "@/components/contacts/alpha-pager";
import { ContactsTabs } from "@/components/contacts/contacts-tabs";
import { SearchForm } from "@/components/contacts/search-form";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { hrefWith } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { searchContacts } from "@/lib/domain/contacts/search-contacts";
import { requireDashboard } from "@/app/_lib/dashboard-context";

export const metadata: Metadata = { title: "Contacts" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const one = (value: string | string[] | undefined) => (typeof value === "string" ? value : undefined);

// Everyone the workspace has sent to (each recipient becomes a contact), searchable by address or name.
export default async function ContactsPage({ searchParams }: Props) {
  await connection();
  const { workspace } = await requireDashboard();
  const params = await searchParams;
  const q = one(params.q)?.slice(0, 320) ?? "";
  const page = await searchContacts(workspace.id, { query: q, after: one(params.after), before: one(params.before) });
  return (
    <div>
      <PageHeader
        title="Contacts"
        description="Every recipient of the workspace's messages becomes a contact; a display name sets its name."
      />
      <ContactsTabs current="/contacts" />
      <SearchForm
        action="/contacts"
        name="q"
        label="Search contacts"
        defaultValue={q}
        placeholder="Address or name starts with…"
      />
      {page.items.length === 0 ? (
        <EmptyState title={q ? `No contact starts with “${q}”` : "No contacts yet"}>
          {q
            ? "Search matches the start of the address, or of the name."
            : "Contacts appear when messages are sent to them."}
        </EmptyState>
      ) : (
        <Table label="Contacts">
          <THead>
            <Th>Email</Th>
            <Th>Name</Th>
            <Th>First seen</Th>
          </THead>
          <TBody>
            {page.items.map((contact) => (
              <tr key={contact.id}>
                <Td className="break-all">
                  <Link href={`/contacts/${contact.id}`} className="font-medium text-indigo-600 hover:underline">
                    {contact.email}
                  </Link>
                </Td>
                <Td>{contact.name ?? <span className="text-slate-400">—</span>}</Td>
                <Td className="whitespace-nowrap">
                  <Timestamp value={contact.createdAt} />
                </Td>
              </tr>
            ))}
          </TBody>
        </Table>
      )}
      <AlphaPager
        previousHref={page.previousBefore ? hrefWith("/contacts", { q, before: page.previousBefore }) : null}
        nextHref={page.nextAfter ? hrefWith("/contacts", { q, after: page.nextAfter }) : null}
      />
    </div>
  );
}
