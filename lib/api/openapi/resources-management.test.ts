import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeDomain } from "@/lib/domains/describe-domain";
import { listDomains } from "@/lib/domains/list-domains";
import { serializeDomain, serializeDomainSummary } from "@/lib/domains/serialize";
import { addSuppression } from "@/lib/suppressions/add-suppression";
import { serializeSuppression } from "@/lib/suppressions/api";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
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
});
