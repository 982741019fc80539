import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { WorkflowBuilder } from "@/components/workflows/builder/workflow-builder";
import { PageHeader } from "@/components/ui/page-header";
import { newSendStep } from "@/lib/flows/workflows/builder.shared";
import { listBuilderChoices } from "@/lib/flows/workflows/list-builder-choices";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { saveWorkflowAction, testRunWorkflowAction } from "../actions";

export const metadata: Metadata = { title: "New workflow" };

// A new workflow starts as one send-email step; the first save creates it and opens its page.
export default async function NewWorkflowPage() {
  await connection();
  const { workspace } = await requireDashboard();
  const choices = await listBuilderChoices(workspace.id);
  const initial = { name: "", key: "", enabled: true, steps: [newSendStep("step-0", choices.templates[0]?.id ?? "")] };
  return (
    <div className="space-y-2">
      <Link href="/workflows" className="text-sm text-indigo-600 hover:underline">
        ← All workflows
      </Link>
      <PageHeader title="New workflow" description="Send emails from your templates, with waits in between." />
      <WorkflowBuilder
        workflowId={null}
        initial={initial}
        templates={choices.templates}
        groups={choices.groups}
        save={saveWorkflowAction}
        testRun={testRunWorkflowAction}
      />
    </div>
  );
}
