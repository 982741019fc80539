import { scopeAlternatives, type ScopeNeed } from "@/lib/domain/api-keys/scopes.shared";
import { errorResponseRef, rateLimitHeaders, ref, type ErrorStatus, type JsonObject } from "./components";

/** A success answer: `{ data: <schema> }` unless `content` says otherwise. */
export interface Success {
  status: "200" | "201";
  description: string;
  data?: string;
  list?: { meta: string; item: string };
  content?: JsonObject;
  headers?: JsonObject;
}

export interface OperationSpec {
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  parameters?: JsonObject[];
  /** A components/schemas name; `optional` when the body may be empty. */
  body?: { schema: string; optional?: boolean };
  success: Success[];
  /** Beyond those every authenticated operation may answer: 401, 429, 503. */
  errors?: ErrorStatus[];
  /**
   * The scope a key needs (docs/api.md#scopes), or alternatives of which any one will do; required unless
   * `public`. A key with `full` may call anything.
   */
  scope?: ScopeNeed;
  /** No credentials, no rate limit (the OpenAPI document itself). */
  public?: boolean;
  deprecated?: boolean;
}

const dataOf = (name: string) => ({ type: "object", required: ["data"], properties: { data: ref(name) } });
const listOf = (meta: string, item: string) => ({
  type: "object",
  required: ["meta", "data"],
  properties: { meta: ref(meta), data: { type: "array", items: ref(item) } },
});

function successResponse(success: Success, isPublic: boolean): JsonObject {
  const schema = success.list
    ? listOf(success.list.meta, success.list.item)
    : success.data
      ? dataOf(success.data)
      : undefined;
  return {
    description: success.description,
    headers: { ...(isPublic ? {} : rateLimitHeaders), ...success.headers },
    content: success.content ?? { "application/json": { schema } },
  };
}

/** One OpenAPI operation object, with the error responses that apply to it. */
export function operation(spec: OperationSpec): JsonObject {
  const responses: JsonObject = {};
  for (const success of spec.success) responses[success.status] = successResponse(success, spec.public ?? false);
  if (!spec.public && !spec.scope) throw new Error(`OpenAPI operation ${spec.operationId} names no scope.`);
  const errors: ErrorStatus[] = spec.public
    ? (spec.errors ?? [])
    : [...(spec.errors ?? []), "401", "403", "429", "503"];
  for (const status of [...new Set(errors)].sort()) responses[status] = errorResponseRef(status);
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [spec.tag],
    ...(spec.deprecated ? { deprecated: true } : {}),
    ...(spec.public ? { security: [] } : scopeFields(spec.scope!)),
    ...(spec.parameters ? { parameters: spec.parameters } : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: !spec.body.optional,
            content: { "application/json": { schema: ref(spec.body.schema) } },
          },
        }
      : {}),
    responses,
  };
}

/**
 * `security` lists the alternatives: the operation's own scope (each of them, when it has several), or `full`.
 * `x-scope` stays the one scope it names first; `x-scopes` lists them all when there are several.
 */
function scopeFields(scope: ScopeNeed): JsonObject {
  const scopes = scopeAlternatives(scope);
  const security = [...scopes.filter((name) => name !== "full"), "full"].map((name) => ({ basicAuth: [name] }));
  return { security, "x-scope": scopes[0], ...(scopes.length > 1 ? { "x-scopes": [...scopes] } : {}) };
}

export const pathId = (what: string, prefix: string): JsonObject => ({
  name: "id",
  in: "path",
  required: true,
  description: `The ${what} id (${prefix}…).`,
  schema: { type: "string" },
});

export const queryParam = (name: string, schema: JsonObject, description: string): JsonObject => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
});

/** Errors of a JSON body endpoint: bad JSON or field, too large, wrong content type. */
export const JSON_BODY_ERRORS: ErrorStatus[] = ["400", "413", "415"];

/** POST bodies that send email: validation, template lookup and rendering happen in the request. */
export const SEND_ERRORS: ErrorStatus[] = [...JSON_BODY_ERRORS, "404", "422"];

export const replayed: Success = {
  status: "200",
  description:
    "An identical earlier request (same metaId and body, within 24 hours) answered again; nothing new was created.",
  headers: { "Idempotent-Replayed": { $ref: "#/components/headers/Idempotent-Replayed" } },
};
