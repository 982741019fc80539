import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { RunStatusBadge } from "./run-status-badge";

export interface WorkflowRunRowView {
  id: string;
  workflowName: string | null;
  workflowKey: string | null;
  sandbox: boolean;
  status: string;
  createdAt: Date;
  messageCount: number;
}

/** Workflow runs newest first; the workflow cell links to the run. */
export function WorkflowRunTable({ runs }: { runs: WorkflowRunRowView[] }) {
  return (
    <Table label="Workflow runs">
      <THead>
        <Th>Workflow</Th>
        <Th>Status</Th>
        <Th>Created</Th>
        <Th className="text-right">Messages</Th>
      </THead>
      <TBody>
        {runs.map((run) => (
          <tr key={run.id} className="hover:bg-slate-50">
            <Td className="min-w-48">
              <Link href={`/workflow-runs/${run.id}`} className="font-medium text-indigo-600 hover:underline">
                {run.workflowName ?? run.workflowKey ?? "(deleted workflow)"}
              </Link>
              <p className="mt-0.5 flex flex-wrap items-center gap-1.5 text-xs text-slate-500">
                {run.workflowName && run.workflowKey ? <span className="font-mono">{run.workflowKey}</span> : null}
                <span className="font-mono">{run.id}</span>
                {run.sandbox ? <Badge tone="warning">sandbox</Badge> : null}
              </p>
            </Td>
            <Td>
              <RunStatusBadge status={run.status} />
            </Td>
            <Td className="whitespace-nowrap text-slate-600">
              <Timestamp value={run.createdAt} />
            </Td>
            <Td className="text-right tabular-nums">{run.messageCount}</Td>
          </tr>
        ))}
      </TBody>
    </Table>
  );
}
