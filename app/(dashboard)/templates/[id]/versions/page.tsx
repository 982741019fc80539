import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { isNotFound } from "@/components/insights/page-params";
import { HtmlPreview } from "@/components/messages/html-preview";
import { RestoreVersionForm } from "@/components/templates/library/restore-version-form";
import { VersionDiffView } from "@/components/templates/library/version-diff-view";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { hrefWith } from "@/components/ui/pager";
import { Timestamp } from "@/components/ui/timestamp";
import { getTemplateVersionOrThrow } from "@/lib/domain/templates/get-template-version-or-throw";
import { listTemplateVersions, type TemplateVersionSummary } from "@/lib/domain/templates/list-template-versions";
import { previewTemplateVersion } from "@/lib/domain/templates/preview-template-version";
import { diffVersionContent } from "@/lib/domain/templates/version-diff.shared";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { restoreVersionAction } from "../../actions";

export const metadata: Metadata = { title: "Template versions" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// Every saved version of a template, one of them compared with the current one (or its predecessor),
// previewed with the template's first scenario, and restorable.
export default async function TemplateVersionsPage({ params, searchParams }: Props) {
  await connection();
  const { id } = await params;
  const query = await searchParams;
  const { workspace } = await requireDashboard();
  const history = await listTemplateVersions(workspace.id, id).catch((error) => {
    if (isNotFound(error)) notFound();
    throw error;
  });
  const { template, versions } = history;
  const selectedNumber = typeof query.version === "string" ? Number(query.version) : template.version;
  const selected = versions.find((version) => version.version === selectedNumber);
  if (!selected) notFound();
  const isCurrent = selected.version === template.version;
  const against = query.against === "previous" || isCurrent ? "previous" : "current";
  const {
    version: content,
    scenarioName,
    preview,
  } = await previewTemplateVersion(workspace.id, template.id, selected.version);
  const predecessor =
    selected.version > 1 ? await getTemplateVersionOrThrow(workspace.id, template.id, selected.version - 1) : null;
  const diff =
    against === "current"
      ? diffVersionContent(content, template)
      : predecessor
        ? diffVersionContent(predecessor, content)
        : null;
  const base = `/templates/${template.id}/versions`;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap gap-4 text-sm">
        <Link href="/templates" className="text-indigo-600 hover:underline">
          ← All templates
        </Link>
        <Link href={`/templates/${template.id}`} className="text-indigo-600 hover:underline">
          Open in the editor
        </Link>
      </div>
      <PageHeader
        title={<span className="break-words">Versions of {template.name}</span>}
        description={`Every save is a version; the current one is v${template.version}. Restoring saves an old version's content as a new one.`}
      />
      <div className="grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
        <VersionList versions={versions} current={template.version} selected={selected.version} base={base} />
        <div className="min-w-0 space-y-6">
          <Card
            id="selected-version"
            title={`Version ${selected.version}${isCurrent ? " (current)" : ""}`}
            description={<VersionMeta version={selected} />}
            actions={
              <RestoreVersionForm
                templateId={template.id}
                version={selected.version}
                currentVersion={template.version}
                action={restoreVersionAction}
              />
            }
          >
            <nav aria-label="Compare with" className="mb-4 flex flex-wrap gap-2 text-sm">
              {!isCurrent ? (
                <CompareLink
                  href={hrefWith(base, { version: selected.version, against: "current" })}
                  active={against === "current"}
                  label={`Compared with the current version (v${template.version})`}
                />
              ) : null}
              {predecessor ? (
                <CompareLink
                  href={hrefWith(base, { version: selected.version, against: "previous" })}
                  active={against === "previous"}
                  label={`Compared with the previous version (v${predecessor.version})`}
                />
              ) : null}
            </nav>
            {diff ? (
              <VersionDiffView
                fields={diff}
                fromLabel={against === "current" ? `v${selected.version}` : `v${selected.version - 1}`}
                toLabel={against === "current" ? `v${template.version} (current)` : `v${selected.version}`}
              />
            ) : (
              <p className="text-sm text-slate-600">
                Version 1 is where this template started: there is nothing earlier to compare it with.
              </p>
            )}
          </Card>
          <Card
            id="version-preview"
            title={`Preview of v${selected.version}`}
            description={
              scenarioName
                ? `Rendered with the scenario “${scenarioName}”.`
                : "The template has no scenarios: rendered without sample data."
            }
          >
            {preview.rendered ? (
              <div className="space-y-3">
                <p className="text-sm">
                  <span className="text-slate-500">Subject:</span>{" "}
                  <span className="font-medium text-slate-900" data-testid="version-preview-subject">
                    {preview.rendered.subject}
                  </span>
                </p>
                <HtmlPreview html={preview.rendered.bodyHtml} title={`Preview of version ${selected.version}`} />
              </div>
            ) : (
              <ul className="space-y-1 text-sm text-red-700" data-testid="version-preview-problems">
                {preview.problems.map((problem, index) => (
                  <li key={index}>
                    {problem.field}
                    {problem.line ? ` (line ${problem.line}, column ${problem.column})` : ""}: {problem.message}
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>
      </div>
    </div>
  );
}

function VersionMeta({ version }: { version: TemplateVersionSummary }) {
  return (
    <>
      Saved <Timestamp value={version.createdAt} /> by{" "}
      {version.author ? (version.author.name ?? version.author.email) : "API/CLI"}
      {version.restoredFromVersion ? ` · restored from v${version.restoredFromVersion}` : ""}
    </>
  );
}

function VersionList({
  versions,
  current,
  selected,
  base,
}: {
  versions: TemplateVersionSummary[];
  current: number;
  selected: number;
  base: string;
}) {
  return (
    <nav aria-label="Versions, newest first">
      <ol className="divide-y divide-slate-100 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
        {versions.map((version) => (
          <li key={version.id} data-testid="version-item" data-version={version.version}>
            <Link
              href={hrefWith(base, { version: version.version })}
              aria-current={version.version === selected ? "page" : undefined}
              className={`block px-4 py-3 text-sm hover:bg-slate-50 ${version.version === selected ? "bg-indigo-50" : ""}`}
            >
              <span className="flex items-center gap-2">
                <span className="font-semibold text-slate-900">v{version.version}</span>
                {version.version === current ? <Badge tone="success">Current</Badge> : null}
                {version.restoredFromVersion ? (
                  <Badge tone="info">restored from v{version.restoredFromVersion}</Badge>
                ) : null}
              </span>
              <span className="mt-0.5 block text-xs text-slate-500">
                <Timestamp value={version.createdAt} />
              </span>
              <span className="block truncate text-xs text-slate-500">
                {version.author ? (version.author.name ?? version.author.email) : "API/CLI"}
              </span>
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}

function CompareLink({ href, active, label }: { href: string; active: boolean; label: string }) {
  return (
    <Link
      href={href}
      aria-current={active ? "true" : undefined}
      className={`rounded-md px-3 py-1.5 font-medium ring-1 ring-inset ${active ? "bg-indigo-600 text-white ring-indigo-600" : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50"}`}
    >
      {label}
    </Link>
  );
}
