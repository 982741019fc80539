import "server-only";
import fs from "node:fs";
import path from "node:path";
import { AUDIT_CLI_ACTOR } from "@/lib/records/audit/actor";
import { AppError } from "@/lib/foundation/errors";
import { createWorkflow, type WorkflowRow } from "@/lib/flows/workflows/create-workflow";
import { listWorkflows } from "@/lib/flows/workflows/list-workflows";
import { serializeWorkflow } from "@/lib/flows/workflows/serialize";
import { findWorkspaceOrThrow } from "@/lib/domain/workspaces/find-workspace-or-throw";
import { plural } from "@/lib/foundation/plural.shared";
import { emit, parseFlags, requiredString, UsageError, type CliCommand } from "../io";

export const workflowCommands: Record<string, CliCommand> = {
  "workflow create": {
    usage: "workflow create --workspace ID|NAME --file FILE [--json]",
    summary: "Create a workflow from a JSON file: name, optional key and enabled, steps (see docs/workflows.md).",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { workspace: { type: "string" }, file: { type: "string" } });
      const workspaceRef = requiredString(values, "workspace");
      const file = requiredString(values, "file");
      const definition = readJsonFile(file);
      const workspace = await findWorkspaceOrThrow(workspaceRef);
      const workflow = await createWorkflow({ workspaceId: workspace.id, definition, actor: AUDIT_CLI_ACTOR }).catch(
        (error: unknown) => {
          // Name the file, so "Invalid steps[1].seconds" points somewhere.
          if (error instanceof AppError)
            throw new AppError(error.code, `${file}: ${error.message}`, { param: error.param });
          throw error;
        },
      );
      emit(context, serializeWorkflow(workflow), [
        `Created workflow "${workflow.name}" (${workflow.id}) in "${workspace.name}" (${workspace.id}).`,
        ...describeWorkflow(workflow),
      ]);
    },
  },
  "workflow list": {
    usage: "workflow list --workspace ID|NAME [--json]",
    summary: "List a workspace's workflows with their keys, state and steps.",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { workspace: { type: "string" } });
      const workspace = await findWorkspaceOrThrow(requiredString(values, "workspace"));
      const workflows = await listWorkflows(workspace.id);
      const lines =
        workflows.length === 0 ? [`"${workspace.name}" has no workflows yet (npm run cli -- workflow create).`] : [];
      for (const workflow of workflows)
        lines.push(`${workflow.id}  "${workflow.name}"`, ...describeWorkflow(workflow).map((line) => `  ${line}`));
      emit(context, workflows.map(serializeWorkflow), lines);
    },
  },
};

function describeWorkflow(workflow: WorkflowRow): string[] {
  const key = workflow.key ? `key "${workflow.key}"` : "no key (trigger it by id)";
  const lines = [`${key}, ${workflow.enabled ? "enabled" : "disabled"}, ${plural(workflow.steps.length, "step")}:`];
  workflow.steps.forEach((step, index) => {
    lines.push(
      step.type === "wait"
        ? `  ${index + 1}. wait ${formatSeconds(step.seconds)}`
        : `  ${index + 1}. sendEmail ${step.templateId} to ${step.to}`,
    );
  });
  return lines;
}

function formatSeconds(seconds: number): string {
  for (const [unit, size] of [
    ["day", 86_400],
    ["hour", 3600],
    ["minute", 60],
  ] as const) {
    if (seconds % size === 0) return plural(seconds / size, unit);
  }
  return plural(seconds, "second");
}

function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(file), "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    throw new UsageError(`Cannot read --file ${file}: ${reason}.`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError("INVALID_JSON", `${file} is not valid JSON: ${(error as Error).message}.`);
  }
}
