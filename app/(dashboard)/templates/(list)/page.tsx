import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { SearchForm } from "@/components/contacts/search-form";
import { InvalidLink, isInvalidParameter } from "@/components/insights/page-params";
import { TemplateRowActions } from "@/components/templates/library/template-row-actions";
import { Badge } from "@/components/ui/badge";
import { LinkButton } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { hrefWith, Pager } from "@/components/ui/pager";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { listDashboardTemplates, type DashboardTemplate } from "@/lib/domain/templates/list-dashboard-templates";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { deleteTemplateAction, duplicateTemplateAction } from "../actions";

export const metadata: Metadata = { title: "Templates" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const one = (value: string | string[] | undefined) => (typeof value === "string" ? value : undefined);

// The workspace's templates, most recently edited first, searchable by name and subject.
export default async function TemplatesPage({ searchParams }: Props) {
  await connection();
  const { workspace } = await requireDashboard();
  const params = await searchParams;
  const q = one(params.q)?.slice(0, 200) ?? "";
  const header = (
    <PageHeader
      title="Templates"
      description="Liquid email templates: edit them here, send them by id from the API and from workflows."
      actions={
        <LinkButton href="/templates/new" variant="primary">
          New template
        </LinkButton>
      }
    />
  );
  let page;
  try {
    page = await listDashboardTemplates(workspace.id, {
      query: q,
      after: one(params.after),
      before: one(params.before),
    });
  } catch (error) {
    if (!isInvalidParameter(error)) throw error;
    return (
      <div>
        {header}
        <InvalidLink error={error} firstPageHref={hrefWith("/templates", { q })} />
      </div>
    );
  }
  return (
    <div>
      {header}
      <SearchForm
        action="/templates"
        name="q"
        label="Search templates"
        defaultValue={q}
        placeholder="Name or subject contains…"
      />
      {page.items.length === 0 && !page.previousBefore ? (
        q ? (
          <EmptyState title={`No template matches “${q}”`}>
            The search looks for the text anywhere in the name or the subject, ignoring case.
          </EmptyState>
        ) : (
          <EmptyState
            title="No templates yet"
            action={
              <LinkButton href="/templates/new" variant="primary">
                New template
              </LinkButton>
            }
          >
            Start from a blank template, in code or in visual blocks, or from a starter: welcome, magic link, password
            reset, receipt, shipping update.
          </EmptyState>
        )
      ) : (
        <TemplateTable templates={page.items} />
      )}
      {page.items.length > 0 || page.previousBefore ? (
        <Pager
          previousHref={page.previousBefore ? hrefWith("/templates", { q, before: page.previousBefore }) : null}
          nextHref={page.nextAfter ? hrefWith("/templates", { q, after: page.nextAfter }) : null}
          summary={`${page.items.length} on this page`}
        />
      ) : null}
    </div>
  );
}

function TemplateTable({ templates }: { templates: DashboardTemplate[] }) {
  return (
    <Table label="Templates">
      <THead>
        <Th>Name</Th>
        <Th>Kind</Th>
        <Th>Version</Th>
        <Th>Last edited</Th>
        <Th>Used by</Th>
        <Th className="text-right">Actions</Th>
      </THead>
      <TBody>
        {templates.map((template) => (
          <tr key={template.id} data-testid="template-row" data-template-id={template.id}>
            <Td className="max-w-xs">
              <Link
                href={`/templates/${template.id}`}
                className="font-medium break-words text-indigo-600 hover:underline"
              >
                {template.name}
              </Link>
              <p className="mt-0.5 truncate font-mono text-xs text-slate-500" title={template.subject}>
                {template.subject}
              </p>
            </Td>
            <Td>
              <Badge tone={template.kind === "blocks" ? "info" : "neutral"}>
                {template.kind === "blocks" ? "Blocks" : "Code"}
              </Badge>
            </Td>
            <Td className="whitespace-nowrap">
              <Link
                href={`/templates/${template.id}/versions`}
                className="text-indigo-600 hover:underline"
                aria-label={`Version ${template.version} of ${template.name}: history`}
              >
                v{template.version}
              </Link>
            </Td>
            <Td className="whitespace-nowrap">
              <Timestamp value={template.updatedAt} />
              <p className="text-xs text-slate-500" data-testid="template-editor">
                {template.editor ? (template.editor.name ?? template.editor.email) : "API/CLI"}
              </p>
            </Td>
            <Td className="whitespace-nowrap" data-testid="template-used-by">
              {template.usedByWorkflows === 0 ? (
                <span className="text-slate-400">no workflows</span>
              ) : (
                `${template.usedByWorkflows} ${template.usedByWorkflows === 1 ? "workflow" : "workflows"}`
              )}
            </Td>
            <Td className="text-right">
              <TemplateRowActions
                templateId={template.id}
                name={template.name}
                duplicateAction={duplicateTemplateAction}
                deleteAction={deleteTemplateAction}
              />
            </Td>
          </tr>
        ))}
      </TBody>
    </Table>
  );
}
