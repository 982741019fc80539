import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { dryRunRoute } from "@/lib/delivery/routing/dry-run";
import { createConnection } from "@/lib/domain/providers/create-connection";
import { createRule } from "@/lib/domain/providers/create-rule";
import { serializeConnection } from "@/lib/domain/providers/serialize-connection";
import { serializeRule } from "@/lib/domain/providers/serialize-rule";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import * as providers from "./resources-providers";

/** Strict at the top level: a field the serializer adds but the document lacks fails here. */
const conforms = (schema: z.ZodObject, value: unknown) => expect(() => schema.strict().parse(value)).not.toThrow();

describe("OpenAPI provider resources match their serializers", () => {
  it("ProviderConnection of each kind, RoutingRule, RouteDryRun", async () => {
    const { workspace } = await createTestWorkspace();
    const ws = workspace.id;
    const ses = await createConnection(
      ws,
      {
        name: "ses",
        kind: "ses",
        region: "eu-west-1",
        accessKeyId: "AKIAABCDEFGHIJKLMNOP",
        secretAccessKey: "s",
        configurationSet: "events",
        snsTopicArns: ["arn:aws:sns:eu-west-1:123456789012:events"],
        ratePerSecond: 14,
      },
      AUDIT_SYSTEM_ACTOR,
    );
    const resend = await createConnection(ws, { name: "resend", kind: "resend", apiKey: "re_x" }, AUDIT_SYSTEM_ACTOR);
    const sim = await createConnection(ws, { name: "sim", kind: "simulator", concurrency: 2 }, AUDIT_SYSTEM_ACTOR);
    for (const connection of [ses, resend, sim])
      conforms(providers.providerConnectionResource, serializeConnection(connection));
    const rule = await createRule(
      ws,
      {
        name: "All",
        match: { streams: ["bulk"], recipientDomains: ["*.example.org"] },
        connections: ["sim", "default"],
      },
      AUDIT_SYSTEM_ACTOR,
    );
    conforms(providers.routingRuleResource, serializeRule(rule));
    conforms(
      providers.routeDryRunResource,
      await dryRunRoute(ws, { from: "hello@example.com", to: "a@x.example.org", tags: ["stream:bulk"] }),
    );
  });
});
