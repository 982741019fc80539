import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { deleteTemplateScenario } from "@/lib/domain/templates/delete-template-scenario";
import { getTemplateScenarioOrThrow } from "@/lib/domain/templates/get-template-scenario-or-throw";
import { serializeScenario } from "@/lib/domain/templates/serialize";
import { templateScenarioSchema } from "@/lib/domain/templates/schemas";
import { assertKnownKeys } from "@/lib/foundation/validation.shared";
import { updateTemplateScenario } from "@/lib/domain/templates/update-template-scenario";

type Params = { id: string; scenarioId: string };
const field = (body: unknown, name: string) => (body as Record<string, unknown>)?.[name] ?? undefined;

// GET /v1/templates/:id/scenarios/:scenarioId
export const GET = withApiKey<Params>({ scope: "templates:read", body: "none" }, async ({ principal, params }) =>
  ok(serializeScenario(await getTemplateScenarioOrThrow(principal.workspaceId, params.id, params.scenarioId))),
);

// PATCH /v1/templates/:id/scenarios/:scenarioId – rename it, or replace its variables
export const PATCH = withApiKey<Params>(
  { scope: "templates:write", body: "json", maxBytes: 512 * 1024 },
  async ({ principal, request, params, body }) => {
    assertKnownKeys(body, templateScenarioSchema);
    const scenario = await updateTemplateScenario({
      workspaceId: principal.workspaceId,
      templateId: params.id,
      scenarioId: params.scenarioId,
      name: field(body, "name"),
      variables: field(body, "variables"),
      actor: apiActor(principal, request),
    });
    return ok(serializeScenario(scenario));
  },
);

// DELETE /v1/templates/:id/scenarios/:scenarioId
export const DELETE = withApiKey<Params>(
  { scope: "templates:write", body: "none" },
  async ({ principal, request, params }) => {
    await deleteTemplateScenario({
      workspaceId: principal.workspaceId,
      templateId: params.id,
      scenarioId: params.scenarioId,
      actor: apiActor(principal, request),
    });
    return ok({ id: params.scenarioId, deleted: true });
  },
);
