import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { WorkflowRowActions, type RowAction } from "./workflow-row-actions";

export interface WorkflowRowView {
  id: string;
  name: string;
  key: string | null;
  enabled: boolean;
  stepCount: number;
  recentRuns: number;
  lastRunAt: Date | null;
  updatedAt: Date;
}

/** The workflow list: the name opens the builder; actions act in place. */
export function WorkflowTable({
  workflows,
  recentDays,
  setEnabled,
  remove,
}: {
  workflows: WorkflowRowView[];
  recentDays: number;
  setEnabled: RowAction;
  remove: RowAction;
}) {
  return (
    <Table label="Workflows">
      <THead>
        <Th>Workflow</Th>
        <Th>State</Th>
        <Th className="text-right">Steps</Th>
        <Th className="text-right">Runs ({recentDays} days)</Th>
        <Th>Last run</Th>
        <Th>Updated</Th>
        {/* relative: the absolutely placed sr-only text would otherwise escape the table's scroll frame on phones. */}
        <Th className="relative">
          <span className="sr-only">Actions</span>
        </Th>
      </THead>
      <TBody>
        {workflows.map((workflow) => (
          <tr key={workflow.id} data-testid="workflow-row" data-key={workflow.key ?? ""} className="hover:bg-slate-50">
            <Td className="min-w-48">
              <Link href={`/workflows/${workflow.id}`} className="font-medium text-indigo-600 hover:underline">
                {workflow.name}
              </Link>
              <p className="mt-0.5 font-mono text-xs break-all text-slate-500">
                {workflow.key ?? "no key: trigger by id"}
              </p>
            </Td>
            <Td>{workflow.enabled ? <Badge tone="success">enabled</Badge> : <Badge>disabled</Badge>}</Td>
            <Td className="text-right tabular-nums">{workflow.stepCount}</Td>
            <Td className="text-right tabular-nums">{workflow.recentRuns}</Td>
            <Td className="whitespace-nowrap text-slate-600">
              {workflow.lastRunAt ? (
                <Timestamp value={workflow.lastRunAt} />
              ) : (
                <span className="text-slate-400">none in {recentDays} days</span>
              )}
            </Td>
            <Td className="whitespace-nowrap text-slate-600">
              <Timestamp value={workflow.updatedAt} />
            </Td>
            <Td>
              <WorkflowRowActions workflow={workflow} setEnabled={setEnabled} remove={remove} />
            </Td>
          </tr>
        ))}
      </TBody>
    </Table>
  );
}
