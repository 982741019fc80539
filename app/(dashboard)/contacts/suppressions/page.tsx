import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { AddSuppressionForm } from "@/components/contacts/add-suppression-form";
import { AlphaPager } from "@/components/contacts/alpha-pager";
import { ContactsTabs } from "@/components/contacts/contacts-tabs";
import { RemoveSuppressionButton } from "@/components/contacts/remove-suppression-button";
import { SearchForm } from "@/components/contacts/search-form";
import { SuppressionReasonBadge } from "@/components/contacts/suppression-reason-badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { hrefWith } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { hasRole } from "@/lib/foundation/access/roles.shared";
import { listSuppressionsPage } from "@/lib/domain/suppressions/list-suppressions-page";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { addSuppressionAction, removeSuppressionAction } from "../actions";

export const metadata: Metadata = { title: "Suppression list" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const one = (value: string | string[] | undefined) => (typeof value === "string" ? value : undefined);

// Addresses live sends skip: hard bounces, complaints, and those added by hand.
export default async function SuppressionsPage({ searchParams }: Props) {
  await connection();
  const { workspace, role } = await requireDashboard();
  const canManage = hasRole(role, "ADMIN");
  const params = await searchParams;
  const q = one(params.q)?.slice(0, 320) ?? "";
  const page = await listSuppressionsPage(workspace.id, {
    prefix: q,
    after: one(params.after),
    before: one(params.before),
  });
  return (
    <div>
      <PageHeader
        title="Suppression list"
        description="Live messages to these addresses are not sent (recorded as suppressed). Sandbox sends are not affected."
      />
      <ContactsTabs current="/contacts/suppressions" />
      {canManage ? (
        <div className="mb-4">
          <Card title="Suppress an address" id="add-suppression">
            <AddSuppressionForm action={addSuppressionAction} />
          </Card>
        </div>
      ) : null}
      <SearchForm
        action="/contacts/suppressions"
        name="q"
        label="Search the suppression list"
        defaultValue={q}
        placeholder="Address starts with…"
      />
      {page.items.length === 0 ? (
        <EmptyState title={q ? `No suppressed address starts with “${q}”` : "Nothing is suppressed"}>
          Hard bounces and complaints put addresses here automatically.
        </EmptyState>
      ) : (
        <Table label="Suppressed addresses">
          <THead>
            <Th>Email</Th>
            <Th>Reason</Th>
            <Th>Detail</Th>
            <Th>Added</Th>
            {canManage ? <Th className="text-right">Actions</Th> : null}
          </THead>
          <TBody>
            {page.items.map((row) => (
              <tr key={row.id} data-testid={`suppression-${row.email}`}>
                <Td className="font-medium break-all">{row.email}</Td>
                <Td>
                  <SuppressionReasonBadge reason={row.reason} />
                </Td>
                <Td className="min-w-48 text-slate-600">
                  {row.detail ?? "—"}
                  {row.emailMessageId ? (
                    <>
                      {" "}
                      <Link href={`/emails/${row.emailMessageId}`} className="text-indigo-600 hover:underline">
                        message
                      </Link>
                    </>
                  ) : null}
                </Td>
                <Td className="whitespace-nowrap">
                  <Timestamp value={row.createdAt} />
                </Td>
                {canManage ? (
                  <Td className="text-right">
                    <RemoveSuppressionButton email={row.email} action={removeSuppressionAction} />
                  </Td>
                ) : null}
              </tr>
            ))}
          </TBody>
        </Table>
      )}
      <AlphaPager
        previousHref={
          page.previousBefore ? hrefWith("/contacts/suppressions", { q, before: page.previousBefore }) : null
        }
        nextHref={page.nextAfter ? hrefWith("/contacts/suppressions", { q, after: page.nextAfter }) : null}
      />
    </div>
  );
}
