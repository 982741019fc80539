import { ErrorCode, McpError, type ReadResourceResult, type Resource } from "@modelcontextprotocol/sdk/types.js";
import { grants } from "@/lib/domain/api-keys/scopes.shared";
import type { ToolContext } from "./tool";

export const API_DOCS_URI = "postwerk://docs/api";
export const TEMPLATE_URI_TEMPLATE = "postwerk://templates/{id}";
const TEMPLATE_URI = /^postwerk:\/\/templates\/([^/?#]+)$/;

const JSON_TYPE = "application/json";

const apiDocs: Resource = {
  uri: API_DOCS_URI,
  name: "api-docs",
  title: "Postwerk API (OpenAPI 3.1)",
  description: "GET /v1/openapi.json: every operation, its parameters, scopes and errors.",
  mimeType: JSON_TYPE,
};

/** The API docs always; the workspace's templates (the API's first page, 100) when the key may read them. */
export async function listResources({ api, principal }: ToolContext): Promise<Resource[]> {
  if (!grants(principal.scopes, "templates:read")) return [apiDocs];
  const answer = await api("GET", "/v1/templates", { query: { limit: 100 } });
  if (answer.status >= 400) throw apiError(answer.status, answer.json);
  const templates = answer.json.data as Array<{ id: string; name: string; subject: string }>;
  return [
    apiDocs,
    ...templates.map((template) => ({
      uri: `postwerk://templates/${template.id}`,
      name: template.id,
      title: template.name,
      description: `Template "${template.name}" (subject: ${template.subject}), as GET /v1/templates/{id} returns it.`,
      mimeType: JSON_TYPE,
    })),
  ];
}

export const resourceTemplatesFor = (scopes: readonly string[]) =>
  grants(scopes, "templates:read")
    ? [
        {
          uriTemplate: TEMPLATE_URI_TEMPLATE,
          name: "template",
          title: "A template",
          description: "A template with its version, as GET /v1/templates/{id} returns it.",
          mimeType: JSON_TYPE,
        },
      ]
    : [];

export async function readResource(uri: string, { api, principal }: ToolContext): Promise<ReadResourceResult> {
  const template = TEMPLATE_URI.exec(uri);
  let path: string;
  if (uri === API_DOCS_URI) path = "/v1/openapi.json";
  else if (template && grants(principal.scopes, "templates:read"))
    path = `/v1/templates/${encodeURIComponent(template[1])}`;
  else throw new McpError(ErrorCode.InvalidParams, `There is no resource ${uri} for this API key.`);
  const answer = await api("GET", path);
  if (answer.status >= 400) throw apiError(answer.status, answer.json);
  return { contents: [{ uri, mimeType: JSON_TYPE, text: answer.text }] };
}

/** The API's refusal as the JSON-RPC error of a resource read, its envelope as the error's data. */
function apiError(status: number, envelope: { error?: { message?: string } } | null): McpError {
  const message = envelope?.error?.message ?? `The API answered ${status}.`;
  return new McpError(status === 404 ? ErrorCode.InvalidParams : ErrorCode.InternalError, message, {
    status,
    ...envelope,
  });
}
