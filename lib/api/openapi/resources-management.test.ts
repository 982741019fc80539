import { describe, expect, it } from "vitest";
import { z } from "zod";
import { listApiKeys } from "@/lib/api-keys/list-api-keys";
import { serializeApiKey, serializeCreatedApiKey } from "@/lib/api-keys/serialize";
import { describeDomain } from "@/lib/domains/describe-domain";
import { listDomains } from "@/lib/domains/list-domains";
import { serializeDomain, serializeDomainSummary } from "@/lib/domains/serialize";
import { addSuppression } from "@/lib/suppressions/add-suppression";
import { serializeSuppression } from "@/lib/suppressions/api";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { serializeWorkspace } from "@/lib/workspaces/api";
import { readWorkspace } from "@/lib/workspaces/read-workspace";
import * as management from "./resources-management";

/** Strict at the top level: a field the serializer adds but the document lacks fails here. */
const conforms = (schema: z.ZodObject, value: unknown) => expect(() => schema.strict().parse(value)).not.toThrow();

describe("OpenAPI management resources match their serializers", () => {
  it("Domain (with and without a return path), DomainSummary, Suppression", async () => {
    const ws = await createTestWorkspace();
    conforms(management.domainResource, serializeDomain(describeDomain(ws.domain)));
    useSettings({ BOUNCE_DOMAIN: "bounces.example.com" });
    conforms(management.domainResource, serializeDomain(describeDomain(ws.domain)));
    useSettings({ BOUNCE_DOMAIN: undefined });
    for (const domain of await listDomains(ws.workspace.id)) conforms(management.domainSummaryResource, serializeDomainSummary(domain));
    const row = await addSuppression({ workspaceId: ws.workspace.id, email: "ann@example.org", reason: "MANUAL" });
    conforms(management.suppressionResource, serializeSuppression(row));
    conforms(management.removedSuppression, { ...serializeSuppression(row), deleted: true });
  });

  it("ApiKey (and with its secret once), Workspace", async () => {
    const ws = await createTestWorkspace();
    conforms(management.createdApiKeyResource, serializeCreatedApiKey(ws.key));
    for (const key of await listApiKeys(ws.workspace.id)) conforms(management.apiKeyResource, serializeApiKey(key));
    const { settings, sending } = await readWorkspace(ws.workspace.id);
    conforms(management.workspaceResource, serializeWorkspace(settings, sending));
    conforms(management.resumedWorkspace, { ...serializeWorkspace(settings, sending), resumed: 0 });
  });
});
