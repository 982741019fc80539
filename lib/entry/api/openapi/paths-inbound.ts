import type { JsonObject } from "./components";
import { JSON_BODY_ERRORS, operation, pathId, queryParam } from "./operation";

const tag = "Inbound";
const domainId = pathId("inbound domain", "idom_");
const routeId = pathId("inbound route", "irt_");

/** /v1/inbound_domains and /v1/inbound_routes (docs/api.md#inbound-domains-and-routes). */
export const inboundRoutingPaths: Record<string, JsonObject> = {
  "/v1/inbound_domains": {
    get: operation({
      operationId: "listInboundDomains",
      scope: "inbound:read",
      summary: "List inbound domains by name",
      tag,
      success: [
        { status: "200", description: "Every inbound domain.", list: { meta: "CountMeta", item: "InboundDomain" } },
      ],
    }),
    post: operation({
      operationId: "addInboundDomain",
      scope: "inbound:write",
      summary: "Add a domain to receive mail for; the answer carries the MX record to publish",
      description:
        "One workspace per domain: a domain another workspace holds is a 409 naming name. BOUNCE_DOMAIN and the deployment's own hosts are refused. With DOMAIN_VERIFICATION=off it is VERIFIED at once.",
      tag,
      body: { schema: "AddInboundDomainRequest" },
      success: [{ status: "201", description: "The domain.", data: "InboundDomain" }],
      errors: [...JSON_BODY_ERRORS, "409"],
    }),
  },
  "/v1/inbound_domains/{id}": {
    get: operation({
      operationId: "getInboundDomain",
      scope: "inbound:read",
      summary: "Retrieve an inbound domain with its MX record's state as of the last check",
      tag,
      parameters: [domainId],
      success: [{ status: "200", description: "The domain.", data: "InboundDomain" }],
      errors: ["404"],
    }),
    delete: operation({
      operationId: "deleteInboundDomain",
      scope: "inbound:write",
      summary: "Delete an inbound domain with its routes (received mail stays)",
      tag,
      parameters: [domainId],
      success: [{ status: "200", description: "Deleted.", data: "Deleted" }],
      errors: ["404"],
    }),
  },
  "/v1/inbound_domains/{id}/verify": {
    post: operation({
      operationId: "verifyInboundDomain",
      scope: "inbound:write",
      summary: "Look the MX up now: VERIFIED when it names the MX host, FAILED when missing or elsewhere",
      tag,
      parameters: [domainId],
      success: [{ status: "200", description: "The domain after the check.", data: "InboundDomain" }],
      errors: ["404"],
    }),
  },
  "/v1/inbound_routes": {
    get: operation({
      operationId: "listInboundRoutes",
      scope: "inbound:read",
      summary: "List inbound routes, newest first",
      tag,
      parameters: [
        queryParam("limit", { type: "integer", minimum: 1, maximum: 100, default: 100 }, "Routes per page."),
        queryParam("cursor.after", { type: "string" }, "An id: the page after it (older)."),
        queryParam("cursor.before", { type: "string" }, "An id: the page before it (newer)."),
        queryParam("domain", { type: "string" }, "An inbound domain's id or name: only its routes."),
      ],
      success: [
        { status: "200", description: "One page of routes.", list: { meta: "MessageListMeta", item: "InboundRoute" } },
      ],
      errors: ["400"],
    }),
    post: operation({
      operationId: "createInboundRoute",
      scope: "inbound:write",
      summary: "Create a route: a recipient pattern → actions",
      description:
        "The pattern's domain must be an inbound domain of the workspace; the same pattern twice on a domain is a 409 naming pattern. A forward's from must be a sender the workspace may use (422).",
      tag,
      body: { schema: "CreateInboundRouteRequest" },
      success: [{ status: "201", description: "The route.", data: "InboundRoute" }],
      errors: [...JSON_BODY_ERRORS, "409", "422"],
    }),
  },
  "/v1/inbound_routes/{id}": {
    get: operation({
      operationId: "getInboundRoute",
      scope: "inbound:read",
      summary: "Retrieve an inbound route",
      tag,
      parameters: [routeId],
      success: [{ status: "200", description: "The route.", data: "InboundRoute" }],
      errors: ["404"],
    }),
    patch: operation({
      operationId: "updateInboundRoute",
      scope: "inbound:write",
      summary: "Update an inbound route (any of its fields, checked as on creation)",
      tag,
      parameters: [routeId],
      body: { schema: "UpdateInboundRouteRequest" },
      success: [{ status: "200", description: "The route.", data: "InboundRoute" }],
      errors: [...JSON_BODY_ERRORS, "404", "409", "422"],
    }),
    delete: operation({
      operationId: "deleteInboundRoute",
      scope: "inbound:write",
      summary: "Delete an inbound route",
      tag,
      parameters: [routeId],
      success: [{ status: "200", description: "Deleted.", data: "Deleted" }],
      errors: ["404"],
    }),
  },
};
