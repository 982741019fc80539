import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { NewTemplateForm } from "@/components/templates/library/new-template-form";
import { PageHeader } from "@/components/ui/page-header";
import { BLANK_CODE_BODY_HTML, BLANK_SUBJECT } from "@/lib/domain/templates/blank.shared";
import { renderTemplate } from "@/lib/domain/templates/render.shared";
import { STARTERS } from "@/lib/domain/templates/starters/generated";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { createTemplateAction } from "../actions";

export const metadata: Metadata = { title: "New template" };

// Pick a blank template (code or visual blocks) or a starter from the gallery, name it, and open the editor.
export default async function NewTemplatePage() {
  await connection();
  await requireDashboard();
  // Thumbnails show each starter filled with its own sample data, through the one renderer.
  const starters = STARTERS.map((starter) => ({
    key: starter.key,
    name: starter.name,
    description: starter.description,
    previewHtml: renderTemplate(starter, starter.variables).bodyHtml,
  }));
  const blankCodeHtml = renderTemplate(
    { subject: BLANK_SUBJECT, bodyHtml: BLANK_CODE_BODY_HTML, bodyText: null },
    {},
  ).bodyHtml;
  return (
    <div>
      <Link href="/templates" className="text-sm text-indigo-600 hover:underline">
        ← All templates
      </Link>
      <div className="mt-4">
        <PageHeader
          title="New template"
          description="Start blank or from a starter; each starter comes with sample data to preview it with."
        />
      </div>
      <NewTemplateForm starters={starters} blankCodeHtml={blankCodeHtml} action={createTemplateAction} />
    </div>
  );
}
