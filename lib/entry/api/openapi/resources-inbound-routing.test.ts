import { describe, expect, it } from "vitest";
import { z } from "zod";
import { serializeInboundDomain } from "@/lib/domain/inbound/serialize-inbound-domain";
import { serializeInboundRoute } from "@/lib/domain/inbound/serialize-inbound-route";
import { addTestInboundDomain } from "@/lib/domain/inbound/route-testing";
import { createWorkflow } from "@/lib/flows/workflows/create-workflow";
import { createWorkflowWorkspace } from "@/lib/flows/workflows/testing";
import * as inbound from "./resources-inbound-routing";

/** Strict at the top level: a field the serializer adds but the document lacks fails here. */
const conforms = (schema: z.ZodObject, value: unknown) => expect(() => schema.strict().parse(value)).not.toThrow();

describe("OpenAPI inbound routing resources match their serializers", () => {
  it("InboundDomain (pending, verified, after a check) and InboundRoute with every action type", async () => {
    const ws = await createWorkflowWorkspace();
    const pending = await addTestInboundDomain(ws.workspace.id, "in.openapi.test", { verified: false });
    conforms(inbound.inboundDomainResource, serializeInboundDomain(pending.domain));
    conforms(
      inbound.inboundDomainResource,
      serializeInboundDomain(pending.domain, { outcome: "missing", detail: null }),
    );
    const { domain, route } = await addTestInboundDomain(ws.workspace.id, "in2.openapi.test");
    conforms(inbound.inboundDomainResource, serializeInboundDomain(domain));
    const workflow = await createWorkflow({
      workspaceId: ws.workspace.id,
      definition: { name: "Triage", steps: [{ type: "sendEmail", templateId: ws.template.id, to: "a@example.org" }] },
    });
    const full = await route({
      pattern: "support+{hash}@in2.openapi.test",
      name: "Support",
      actions: [
        { type: "webhook" },
        { type: "forward", to: "team@example.org", from: "Acme <hello@example.com>" },
        { type: "workflow", workflowId: workflow.id },
      ],
      spamThreshold: 5,
    });
    conforms(inbound.inboundRouteResource, serializeInboundRoute(full));
    const reject = await route({
      pattern: "*@in2.openapi.test",
      actions: [{ type: "reject", code: 550, message: "No" }],
    });
    conforms(inbound.inboundRouteResource, serializeInboundRoute(reject));
  });
});
