import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { TemplateEditor } from "@/components/templates/editor/template-editor";
import type { EditorActions, LocaleDraft } from "@/components/templates/editor/types";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page-header";
import { Timestamp } from "@/components/ui/timestamp";
import { defaultSenderFor } from "@/lib/domain/domains/default-sender";
import { AppError } from "@/lib/foundation/errors";
import type { BlocksDocument } from "@/lib/domain/templates/blocks.shared";
import { getTemplateForEditor } from "@/lib/domain/templates/get-template-for-editor";
import { listTemplateLocales } from "@/lib/domain/templates/list-template-locales";
import { listTemplateScenarios } from "@/lib/domain/templates/list-template-scenarios";
import { sampleDataSkeleton } from "@/lib/domain/templates/sample-data.shared";
import { templateVariables } from "@/lib/domain/templates/variables.shared";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { deleteScenarioAction, saveScenarioAction, saveTemplateAction, sendTemplateTestAction } from "./actions";

type Props = { params: Promise<{ id: string }> };

export const metadata: Metadata = { title: "Edit template" };

const actions: EditorActions = {
  save: saveTemplateAction,
  saveScenario: saveScenarioAction,
  deleteScenario: deleteScenarioAction,
  sendTest: sendTemplateTestAction,
};

// The template editor (any member). Another workspace's id is a 404; no loading.tsx wraps this page,
// since a loading boundary would answer 200 before the lookup could 404.
export default async function TemplatePage({ params }: Props) {
  await connection();
  const { id } = await params;
  const { workspace, user } = await requireDashboard();
  const loaded = await findTemplate(workspace.id, id);
  if (!loaded) notFound();
  const { template, updatedBy } = loaded;
  const [scenarios, defaultSender, localised] = await Promise.all([
    listTemplateScenarios(workspace.id, template.id),
    defaultSenderFor(workspace.id),
    listTemplateLocales(workspace.id, template.id),
  ]);
  return (
    <div className="space-y-2">
      <Link href="/templates" className="text-sm text-indigo-600 hover:underline">
        ← All templates
      </Link>
      <PageHeader
        title={template.name}
        description={
          <span data-testid="template-version">
            version {template.version} · saved <Timestamp value={template.updatedAt} /> by{" "}
            {updatedBy ? (updatedBy.name ?? updatedBy.email) : "the API or CLI"}
          </span>
        }
        actions={
          <>
            {template.kind === "blocks" ? <Badge tone="info">blocks</Badge> : null}
            <Link
              href={`/templates/${template.id}/versions`}
              className="text-sm font-medium text-indigo-600 hover:underline"
            >
              History
            </Link>
          </>
        }
      />
      <TemplateEditor
        template={{
          id: template.id,
          kind: template.kind,
          version: template.version,
          name: template.name,
          subject: template.subject,
          bodyHtml: template.bodyHtml,
          bodyText: template.bodyText,
          fromAddress: template.fromAddress,
          replyTo: template.replyTo,
          strict: template.strict,
          blocks: (template.blocks as BlocksDocument | null) ?? null,
          defaultLocale: localised.template.defaultLocale,
          variants: variantsOf(localised),
        }}
        scenarios={scenarios.map((scenario) => ({
          id: scenario.id,
          name: scenario.name,
          variables: scenario.variables,
        }))}
        skeleton={skeletonOf(template)}
        userEmail={user.email}
        defaultSender={defaultSender}
        actions={actions}
      />
    </div>
  );
}

/** Every variant row; the default's only once it holds something (the list shows it, empty, in any case). */
function variantsOf({ template, locales }: Awaited<ReturnType<typeof listTemplateLocales>>): LocaleDraft[] {
  return locales
    .map(({ variant }) => ({ ...variant, blocks: (variant.blocks as BlocksDocument | null) ?? null }))
    .filter(
      (variant) =>
        variant.locale !== template.defaultLocale ||
        Object.keys(variant.messages).length > 0 ||
        variant.fallsBackForMissingKeys ||
        variant.sampleData !== null,
    );
}

async function findTemplate(workspaceId: string, id: string) {
  try {
    return await getTemplateForEditor(workspaceId, id);
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

/** Sample data to start from: the variables the template reads, empty (none when it does not parse). */
function skeletonOf(template: {
  subject: string;
  bodyHtml: string;
  bodyText: string | null;
  fromAddress: string | null;
  replyTo: string | null;
}) {
  try {
    return sampleDataSkeleton(
      templateVariables([
        template.subject,
        template.bodyHtml,
        template.bodyText,
        template.fromAddress,
        template.replyTo,
      ]),
    );
  } catch {
    return {};
  }
}
