import type { JsonObject } from "./components";
import { JSON_BODY_ERRORS, operation, pathId } from "./operation";

const tag = "Providers";
const scope = "providers:write";
const connectionId = pathId("provider connection", "pcon_");
const ruleId = pathId("routing rule", "rrule_");

/** /v1/providers and /v1/routing_rules (docs/api.md#providers-and-routing). */
export const providerPaths: Record<string, JsonObject> = {
  "/v1/providers": {
    get: operation({
      operationId: "listProviderConnections",
      scope,
      summary: "List the workspace's own provider connections by name",
      description: "The instance's connection (its env settings) is `default` in every workspace and is not listed.",
      tag,
      success: [
        { status: "200", description: "Every connection.", list: { meta: "CountMeta", item: "ProviderConnection" } },
      ],
    }),
    post: operation({
      operationId: "createProviderConnection",
      scope,
      summary: "Create a connection: an SMTP relay, a Resend or SES account, the simulator or the local inbox",
      description:
        "Each kind takes its own settings (a setting of another kind is a 400 naming it). Secrets (password, apiKey, webhookSecret, secretAccessKey) are sealed and never returned. A host on a loopback or private address is refused unless PROVIDERS_ALLOW_PRIVATE=true; a metadata address always.",
      tag,
      body: { schema: "CreateProviderConnectionRequest" },
      success: [{ status: "201", description: "The connection.", data: "ProviderConnection" }],
      errors: [...JSON_BODY_ERRORS, "409"],
    }),
  },
  "/v1/providers/{id}": {
    get: operation({
      operationId: "getProviderConnection",
      scope,
      summary: "Retrieve a connection (its settings, and which secrets are set)",
      tag,
      parameters: [connectionId],
      success: [{ status: "200", description: "The connection.", data: "ProviderConnection" }],
      errors: ["404"],
    }),
    patch: operation({
      operationId: "updateProviderConnection",
      scope,
      summary: "Change a connection: any field but kind; a new name is carried into the rules",
      description:
        "New secrets take effect on the next hand-off, without a restart; the secrets they replace still verify the connection's incoming events for 24 hours.",
      tag,
      parameters: [connectionId],
      body: { schema: "UpdateProviderConnectionRequest" },
      success: [{ status: "200", description: "The connection.", data: "ProviderConnection" }],
      errors: [...JSON_BODY_ERRORS, "404", "409"],
    }),
    delete: operation({
      operationId: "deleteProviderConnection",
      scope,
      summary: "Delete a connection; refused (409) while a routing rule names it",
      tag,
      parameters: [connectionId],
      success: [{ status: "200", description: "Deleted.", data: "Deleted" }],
      errors: ["404", "409"],
    }),
  },
  "/v1/routing_rules": {
    get: operation({
      operationId: "listRoutingRules",
      scope,
      summary: "List routing rules in the order they are tried",
      tag,
      success: [{ status: "200", description: "Every rule.", list: { meta: "CountMeta", item: "RoutingRule" } }],
    }),
    post: operation({
      operationId: "createRoutingRule",
      scope,
      summary: "Create a rule: a match → a primary connection and its fallbacks",
      tag,
      body: { schema: "CreateRoutingRuleRequest" },
      success: [{ status: "201", description: "The rule.", data: "RoutingRule" }],
      errors: [...JSON_BODY_ERRORS, "409"],
    }),
  },
  "/v1/routing_rules/dry_run": {
    post: operation({
      operationId: "dryRunRoute",
      scope,
      summary: "Which rule and connections a message with these fields would take now; nothing is sent",
      tag,
      body: { schema: "RouteDryRunRequest" },
      success: [{ status: "200", description: "The route.", data: "RouteDryRun" }],
      errors: [...JSON_BODY_ERRORS],
    }),
  },
  "/v1/routing_rules/{id}": {
    get: operation({
      operationId: "getRoutingRule",
      scope,
      summary: "Retrieve a routing rule",
      tag,
      parameters: [ruleId],
      success: [{ status: "200", description: "The rule.", data: "RoutingRule" }],
      errors: ["404"],
    }),
    patch: operation({
      operationId: "updateRoutingRule",
      scope,
      summary: "Change a routing rule (any of its fields, checked as on creation; match is replaced whole)",
      tag,
      parameters: [ruleId],
      body: { schema: "UpdateRoutingRuleRequest" },
      success: [{ status: "200", description: "The rule.", data: "RoutingRule" }],
      errors: [...JSON_BODY_ERRORS, "404"],
    }),
    delete: operation({
      operationId: "deleteRoutingRule",
      scope,
      summary: "Delete a routing rule",
      tag,
      parameters: [ruleId],
      success: [{ status: "200", description: "Deleted.", data: "Deleted" }],
      errors: ["404"],
    }),
  },
};
