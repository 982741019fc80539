import { componentSchemas, headers, responseComponents, type JsonObject } from "./components";
import { contactPaths } from "./paths-contacts";
import { domainPaths, keyPaths, suppressionPaths, workspacePaths } from "./paths-management";
import { messagePaths } from "./paths-messages";
import { sendPaths } from "./paths-sends";
import { templateLocalePaths } from "./paths-template-locales";
import { templatePaths } from "./paths-templates";
import { webhookPaths } from "./paths-webhooks";
import { workflowPaths } from "./paths-workflows";
import { inboundRoutingPaths } from "./paths-inbound";
import { providerPaths } from "./paths-providers";
import { inboundMessagePaths } from "./paths-inbound-messages";

const DESCRIPTION = `Transactional email: send with a template or raw content, in batches or from workflows, and
follow each message's delivery timeline. Conventions (docs/api.md):

- Authentication: HTTP Basic with an API key (username \`key_…\`, password shown once). The one-value
  form \`Basic key_…:secret\` is accepted too.
- Scopes: a key carries scopes fixed at creation (\`full\` = everything). Each operation names the one it
  needs (its \`security\` and \`x-scope\`); a key without it gets 403 FORBIDDEN naming the scope. The
  sandbox's sends take \`emails:send\` or \`emails:sandbox\` (\`x-scopes\`): a key with only
  \`emails:sandbox\` cannot send real mail. A key may
  also be limited to senders (422 naming \`from\`), to an IP allow list (403) and expire (401).
- Base URL: \`{APP_URL}/api\` (this document's server); \`{APP_URL}\` works as well (\`/v1/…\` is rewritten).
- One resource is \`{ "data": … }\`, a list \`{ "meta": …, "data": [ … ] }\`; timestamps are ISO 8601 UTC
  with milliseconds, null until they happen.
- Request bodies: unknown fields are ignored and an explicit null means absent.
- Errors: \`{ "error": { "code", "message", "param"?, "details"? } }\`. A known path called with a method it
  does not list answers 405 with \`Allow\`; an unknown path under /v1 answers the JSON 404.
- Rate limit per API key (default 100 requests/s, bursts of 200): every authenticated answer carries
  RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset; over the limit, 429 with Retry-After.
- SMTP submission (when the operator opens it, ports 587/465): the same send as POST /v1/email_messages
  over SMTP. AUTH PLAIN or LOGIN with the API key (username \`key_…\`, or \`key_…+sandbox\` for the
  sandbox); headers X-Postwerk-Template-Id, X-Postwerk-Variables (JSON), X-Postwerk-Meta-Id,
  X-Postwerk-Group-Key and X-Postwerk-Metadata (JSON) say what SMTP cannot; the reply is
  \`250 2.0.0 OK em_…\`, the message id. Mapping and reply codes: docs/api.md#smtp-submission.`;

let cached: JsonObject | undefined;

/**
 * The OpenAPI 3.1 document of /v1, built once per process: the request bodies are the handlers' own
 * zod schemas and the resources are checked against the serializers (resources.test.ts); the route
 * walk in app/api/v1/openapi.json/route.test.ts checks that every route on disk is described.
 */
export function openApiDocument(): JsonObject {
  cached ??= {
    openapi: "3.1.0",
    info: { title: "Postwerk API", version: "1.0.0", description: DESCRIPTION },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: "/api", description: "This deployment" }],
    security: [{ basicAuth: [] }],
    tags: [
      { name: "Email messages" },
      { name: "Batches" },
      { name: "Workflow runs" },
      { name: "Templates" },
      {
        name: "Workflows",
        description: "Every operation, reads included, needs workflows:write (docs/api.md#workflows).",
      },
      { name: "Attachments" },
      { name: "Audit log" },
      {
        name: "Sandbox",
        description: "The sending operations' twins: validated, rendered and stored, never delivered.",
      },
      {
        name: "Webhooks",
        description: "Beyond the published API: signed webhooks and the pullable event feed (docs/webhooks.md).",
      },
      { name: "Domains", description: "Management (docs/api.md#management): reads and changes need domains:write." },
      { name: "Suppressions", description: "Management: reads and changes need suppressions:write." },
      {
        name: "Contacts",
        description: "Management: contacts and unsubscribe groups; reads and changes need contacts:write.",
      },
      {
        name: "API keys",
        description:
          "Management: reads and changes need keys:write; a key never creates a key that can do more than itself.",
      },
      { name: "Workspace", description: "Management: reads and changes need workspace:write." },
      {
        name: "Inbound",
        description: "Inbound mail (docs/inbound.md): reads need inbound:read, changes inbound:write.",
      },
      {
        name: "Providers",
        description:
          "Provider connections and routing rules (docs/delivery.md#routing-and-failover): everything needs providers:write.",
      },
      { name: "Meta" },
    ],
    paths: {
      ...messagePaths,
      ...templatePaths,
      ...templateLocalePaths,
      ...sendPaths,
      ...workflowPaths,
      ...webhookPaths,
      ...domainPaths,
      ...suppressionPaths,
      ...contactPaths,
      ...keyPaths,
      ...workspacePaths,
      ...inboundRoutingPaths,
      ...inboundMessagePaths,
      ...providerPaths,
    },
    components: {
      securitySchemes: {
        basicAuth: { type: "http", scheme: "basic", description: "API key username (key_…) and password." },
      },
      schemas: componentSchemas(),
      responses: responseComponents(),
      headers,
    },
  };
  return cached;
}
