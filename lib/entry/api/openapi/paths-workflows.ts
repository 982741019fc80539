import type { JsonObject } from "./components";
import { JSON_BODY_ERRORS, operation, pathId, queryParam } from "./operation";

const tag = "Workflows";
const workflowId = pathId("workflow", "wf_");
const workflow = { status: "200" as const, description: "The workflow.", data: "Workflow" };
/** Shape problems name the field (400), a template or group not in the workspace the step's field (404), a key another workflow has `key` (409). */
const DEFINITION_ERRORS = [...JSON_BODY_ERRORS, "404" as const, "409" as const];

const toggle = (enabled: boolean): JsonObject =>
  operation({
    operationId: enabled ? "enableWorkflow" : "disableWorkflow",
    summary: enabled ? "Turn a workflow on" : "Turn a workflow off: runs triggered meanwhile are SKIPPED with a reason",
    description: `No body. A workflow already ${enabled ? "on" : "off"} is answered as it is (nothing changes, nothing is audited). Runs already started carry on.`,
    tag,
    scope: "workflows:write",
    parameters: [workflowId],
    success: [workflow],
    errors: ["404"],
  });

/** /v1/workflows: every operation, reads included, needs workflows:write (docs/api.md#workflows). */
export const workflowPaths: Record<string, JsonObject> = {
  "/v1/workflows": {
    get: operation({
      operationId: "listWorkflows",
      summary: "List the workspace's workflows, newest first",
      tag,
      scope: "workflows:write",
      parameters: [
        queryParam("limit", { type: "integer", minimum: 1, maximum: 100, default: 100 }, "Workflows per page."),
        queryParam("cursor.after", { type: "string" }, "A workflow id: the page after it (older)."),
        queryParam("cursor.before", { type: "string" }, "A workflow id: the page before it (newer)."),
      ],
      success: [
        { status: "200", description: "One page of workflows.", list: { meta: "MessageListMeta", item: "Workflow" } },
      ],
      errors: ["400"],
    }),
    post: operation({
      operationId: "createWorkflow",
      summary: "Create a workflow, with the builder's checks",
      description:
        "The shape (the field at fault named, e.g. steps[1].seconds), each step's template and unsubscribe group in the workspace (404 naming steps[i].templateId), a free key (409 naming key).",
      tag,
      scope: "workflows:write",
      body: { schema: "CreateWorkflowRequest" },
      success: [{ ...workflow, status: "201" }],
      errors: DEFINITION_ERRORS,
    }),
  },
  "/v1/workflows/{id}": {
    get: operation({
      operationId: "getWorkflow",
      summary: "Retrieve a workflow",
      tag,
      scope: "workflows:write",
      parameters: [workflowId],
      success: [workflow],
      errors: ["404"],
    }),
    patch: operation({
      operationId: "updateWorkflow",
      summary: "Change a workflow: the fields sent over its definition, checked as on creation",
      description:
        "Runs already started keep their own copy of the steps; the change applies to runs triggered after it.",
      tag,
      scope: "workflows:write",
      parameters: [workflowId],
      body: { schema: "UpdateWorkflowRequest" },
      success: [workflow],
      errors: DEFINITION_ERRORS,
    }),
    delete: operation({
      operationId: "deleteWorkflow",
      summary: "Delete a workflow; its runs are kept and its key is free again",
      tag,
      scope: "workflows:write",
      parameters: [workflowId],
      success: [{ status: "200", description: "Deleted.", data: "Deleted" }],
      errors: ["404"],
    }),
  },
  "/v1/workflows/{id}/enable": { post: toggle(true) },
  "/v1/workflows/{id}/disable": { post: toggle(false) },
};
