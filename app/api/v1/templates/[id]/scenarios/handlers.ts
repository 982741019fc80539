import { apiActor } from "@/lib/entry/api/api-actor";
import { list, ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { listTemplateScenarios } from "@/lib/domain/templates/list-template-scenarios";
import { saveTemplateScenario } from "@/lib/domain/templates/save-template-scenario";
import { serializeScenario } from "@/lib/domain/templates/serialize";
import { templateScenarioSchema } from "@/lib/domain/templates/schemas";
import { assertKnownKeys } from "@/lib/foundation/validation.shared";

const field = (body: unknown, name: string) => (body as Record<string, unknown>)?.[name];

// GET /v1/templates/:id/scenarios – the template's sample-data sets, by name
export const GET = withApiKey<{ id: string }>(
  { scope: "templates:read", body: "none" },
  async ({ principal, params }) => {
    const scenarios = await listTemplateScenarios(principal.workspaceId, params.id);
    return list({ count: scenarios.length }, scenarios.map(serializeScenario));
  },
);

// POST /v1/templates/:id/scenarios – { name, variables }: created, or its variables replaced when the
// template has a scenario of that name (the editor's save)
export const POST = withApiKey<{ id: string }>(
  { scope: "templates:write", body: "json", maxBytes: 512 * 1024 },
  async ({ principal, request, params, body }) => {
    assertKnownKeys(body, templateScenarioSchema);
    const scenario = await saveTemplateScenario({
      workspaceId: principal.workspaceId,
      templateId: params.id,
      name: field(body, "name"),
      variables: field(body, "variables"),
      actor: apiActor(principal, request),
    });
    return ok(serializeScenario(scenario));
  },
);
