import { componentSchemas, headers, responseComponents, type JsonObject } from "./components";
import { messagePaths } from "./paths-messages";
import { sendPaths } from "./paths-sends";
import { webhookPaths } from "./paths-webhooks";

const DESCRIPTION = `Transactional email: send with a template or raw content, in batches or from workflows, and
follow each message's delivery timeline. Conventions (docs/api.md):

- Authentication: HTTP Basic with an API key (username \`key_…\`, password shown once). The one-value
  form \`Basic key_…:secret\` is accepted too.
- Base URL: \`{APP_URL}/api\` (this document's server); \`{APP_URL}\` works as well (\`/v1/…\` is rewritten).
- One resource is \`{ "data": … }\`, a list \`{ "meta": …, "data": [ … ] }\`; timestamps are ISO 8601 UTC
  with milliseconds, null until they happen.
- Request bodies: unknown fields are ignored and an explicit null means absent.
- Errors: \`{ "error": { "code", "message", "param"?, "details"? } }\`. A known path called with a method it
  does not list answers 405 with \`Allow\`; an unknown path under /v1 answers the JSON 404.
- Rate limit per API key (default 100 requests/s, bursts of 200): every authenticated answer carries
  RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset; over the limit, 429 with Retry-After.`;

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
      { name: "Attachments" },
      { name: "Sandbox", description: "The sending operations' twins: validated, rendered and stored, never delivered." },
      { name: "Webhooks", description: "Beyond the published API: signed webhooks and the pullable event feed (docs/webhooks.md)." },
      { name: "Meta" },
    ],
    paths: { ...messagePaths, ...sendPaths, ...webhookPaths },
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
