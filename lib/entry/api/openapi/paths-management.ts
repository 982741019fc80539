import { SUPPRESSION_REASONS } from "@/db/schema/suppressions";
import type { JsonObject } from "./components";
import { JSON_BODY_ERRORS, operation, pathId, queryParam } from "./operation";

/**
 * Management (docs/api.md#management): domains and suppressions. A family's reads need its write
 * scope (or full): they show configuration a sending key has no use for.
 */
const domainId = pathId("domain", "dom_");
const domains = "Domains";
const suppressions = "Suppressions";

export const domainPaths: Record<string, JsonObject> = {
  "/v1/domains": {
    get: operation({
      operationId: "listDomains",
      scope: "domains:write",
      summary: "List the workspace's sending domains by name",
      tag: domains,
      success: [
        {
          status: "200",
          description: "Every domain (a handful: no paging).",
          list: { meta: "CountMeta", item: "DomainSummary" },
        },
      ],
    }),
    post: operation({
      operationId: "addDomain",
      scope: "domains:write",
      summary: "Add a sending domain; the answer carries the DNS records to publish",
      description:
        "A 2048-bit DKIM key is made for the domain (its private key never leaves the database). The domain is PENDING until POST /v1/domains/{id}/verify finds SPF and DKIM (verified at once when the operator set DOMAIN_VERIFICATION=off).",
      tag: domains,
      body: { schema: "AddDomainRequest" },
      success: [{ status: "201", description: "The domain with its records.", data: "Domain" }],
      errors: JSON_BODY_ERRORS,
    }),
  },
  "/v1/domains/{id}": {
    get: operation({
      operationId: "getDomain",
      scope: "domains:write",
      summary: "Retrieve a domain with its records and each one's state as of the last check",
      tag: domains,
      parameters: [domainId],
      success: [{ status: "200", description: "The domain.", data: "Domain" }],
      errors: ["404"],
    }),
    delete: operation({
      operationId: "deleteDomain",
      scope: "domains:write",
      summary: "Delete a domain and its DKIM key; sends from it are refused from then on",
      tag: domains,
      parameters: [domainId],
      success: [{ status: "200", description: "Deleted.", data: "Deleted" }],
      errors: ["404"],
    }),
  },
  "/v1/domains/{id}/verify": {
    post: operation({
      operationId: "verifyDomain",
      scope: "domains:write",
      summary: "Look the domain's records up now (the dashboard's check) and store the outcome",
      description:
        "VERIFIED when SPF and DKIM are found; a missing or wrong record makes it FAILED; a failed lookup (timeout) changes nothing. Each record carries the outcome and what was found. The sender requirements are checked too (requirements).",
      tag: domains,
      parameters: [domainId],
      success: [{ status: "200", description: "The domain after the check.", data: "Domain" }],
      errors: ["404", "503"],
    }),
  },
  "/v1/domains/{id}/dmarc": {
    get: operation({
      operationId: "getDomainDmarc",
      scope: "domains:write",
      summary: "The last 30 days of the domain's DMARC aggregate reports",
      description:
        "From the reports an inbound route's dmarc action received: the share of mail passing DMARC, the sources sending as the domain (this deployment's path, known services by reverse DNS, unknown sources: possible spoofing) and what p=quarantine or p=reject would stop. docs/deliverability.md#dmarc-reports.",
      tag: domains,
      parameters: [domainId],
      success: [{ status: "200", description: "The summary.", data: "DmarcSummary" }],
      errors: ["404"],
    }),
  },
  "/v1/domains/{id}/requirements": {
    get: operation({
      operationId: "listDomainRequirementChecks",
      scope: "domains:write",
      summary: "The domain's sender-requirement checks of the last 30 days, newest first",
      description:
        "The maintenance job checks each domain once a day and POST /v1/domains/{id}/verify checks it at once; checks are kept 90 days. docs/deliverability.md explains each line.",
      tag: domains,
      parameters: [domainId],
      success: [
        {
          status: "200",
          description: "The checks.",
          list: { meta: "CountMeta", item: "DomainRequirementCheck" },
        },
      ],
      errors: ["404"],
    }),
  },
};

export const suppressionPaths: Record<string, JsonObject> = {
  "/v1/suppressions": {
    get: operation({
      operationId: "listSuppressions",
      scope: "suppressions:write",
      summary: "List the suppression list alphabetically, with filters",
      tag: suppressions,
      parameters: [
        queryParam("reason", { type: "string", enum: [...SUPPRESSION_REASONS] }, "Only entries with this reason."),
        queryParam(
          "since",
          { type: "string", format: "date-time" },
          "Only entries added (or added again) at or after this time.",
        ),
        queryParam("prefix", { type: "string" }, "Only addresses starting with this (any case)."),
        queryParam("limit", { type: "integer", minimum: 1, maximum: 200, default: 200 }, "Entries per page."),
        queryParam("after", { type: "string" }, "meta.nextAfter: the next page."),
        queryParam("before", { type: "string" }, "meta.previousBefore: the previous page."),
      ],
      success: [{ status: "200", description: "One page.", list: { meta: "EmailPageMeta", item: "Suppression" } }],
      errors: ["400"],
    }),
    post: operation({
      operationId: "addSuppression",
      scope: "suppressions:write",
      summary: "Suppress an address: later live sends to it are suppressed",
      description: "Idempotent: an address already listed keeps its row (a complaint stays a complaint).",
      tag: suppressions,
      body: { schema: "AddSuppressionRequest" },
      success: [{ status: "201", description: "The entry.", data: "Suppression" }],
      errors: JSON_BODY_ERRORS,
    }),
  },
  "/v1/suppressions/{email}": {
    delete: operation({
      operationId: "removeSuppression",
      scope: "suppressions:write",
      summary: "Take an address off the list (a hard bounce is reactivated); a complaint needs force and a reason",
      description:
        "The answer is the removed entry: when it was added and from which message. Removing a complaint without force is a 409 naming `force`; the audit log keeps who removed it and why.",
      tag: suppressions,
      parameters: [
        {
          name: "email",
          in: "path",
          required: true,
          description: "The address (the @ may be written %40).",
          schema: { type: "string" },
        },
      ],
      body: { schema: "RemoveSuppressionRequest", optional: true },
      success: [{ status: "200", description: "The removed entry.", data: "RemovedSuppression" }],
      errors: [...JSON_BODY_ERRORS, "404", "409"],
    }),
  },
};

const keys = "API keys";
const workspace = "Workspace";

export const keyPaths: Record<string, JsonObject> = {
  "/v1/api_keys": {
    get: operation({
      operationId: "listApiKeys",
      scope: "keys:write",
      summary: "List the workspace's API keys, newest first (revoked ones included; never a secret)",
      tag: keys,
      success: [{ status: "200", description: "Every key.", list: { meta: "CountMeta", item: "ApiKey" } }],
    }),
    post: operation({
      operationId: "createApiKey",
      scope: "keys:write",
      summary: "Create an API key; the answer carries its secret, shown once",
      description:
        "Scopes default to full. A key creates only keys that can do no more than itself: scopes it holds, and its own allowed senders, IP ranges and expiry as bounds (403 naming the field). A full key without restrictions creates anything.",
      tag: keys,
      body: { schema: "CreateApiKeyRequest" },
      success: [{ status: "201", description: "The key, with `secret`.", data: "CreatedApiKey" }],
      errors: JSON_BODY_ERRORS,
    }),
  },
  "/v1/api_keys/{id}": {
    delete: operation({
      operationId: "revokeApiKey",
      scope: "keys:write",
      summary: "Revoke an API key: 401 from its next request on",
      tag: keys,
      parameters: [pathId("API key", "key_")],
      success: [{ status: "200", description: "The revoked key.", data: "ApiKey" }],
      errors: ["404"],
    }),
  },
};

export const workspacePaths: Record<string, JsonObject> = {
  "/v1/workspace": {
    get: operation({
      operationId: "getWorkspace",
      scope: "workspace:write",
      summary: "The key's workspace: settings and sending state",
      tag: workspace,
      success: [{ status: "200", description: "The workspace.", data: "Workspace" }],
    }),
    patch: operation({
      operationId: "updateWorkspace",
      scope: "workspace:write",
      summary: "Change name, test mode, tracking, default locale, retention windows or the legal hold",
      description:
        "Any subset of the fields. The system mail workspace refuses test mode and tracking (400 naming the field). Retention windows past the instance's ceilings, or a metadata window shorter than the body window, are a 400 naming the field (docs/retention.md). Only the fields that changed are audited.",
      tag: workspace,
      body: { schema: "UpdateWorkspaceRequest" },
      success: [{ status: "200", description: "The workspace.", data: "Workspace" }],
      errors: JSON_BODY_ERRORS,
    }),
  },
  "/v1/workspace/pause": {
    post: operation({
      operationId: "pauseSending",
      scope: "workspace:write",
      summary: "Pause live sending: accepted messages wait as PAUSED (sandbox unaffected)",
      description: "Idempotent: pausing a paused workspace keeps the first reason and time.",
      tag: workspace,
      body: { schema: "PauseSendingRequest", optional: true },
      success: [{ status: "200", description: "The workspace.", data: "Workspace" }],
      errors: JSON_BODY_ERRORS,
    }),
  },
  "/v1/workspace/resume": {
    post: operation({
      operationId: "resumeSending",
      scope: "workspace:write",
      summary: "Resume sending: paused messages go on to delivery, oldest first",
      tag: workspace,
      success: [
        { status: "200", description: "The workspace and how many messages were released.", data: "ResumedWorkspace" },
      ],
    }),
  },
};
