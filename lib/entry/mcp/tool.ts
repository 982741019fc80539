import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { ApiPrincipal } from "@/lib/domain/api-keys/authenticate-api-key";
import type { ApiScope, ScopeNeed } from "@/lib/domain/api-keys/scopes.shared";
import { withoutNoise, type JsonObject } from "@/lib/entry/api/openapi/components";
import { openApiDocument } from "@/lib/entry/api/openapi/document";
import { invalidParameter } from "@/lib/foundation/errors";
import { refusalResult, toolResult, type ApiCall } from "./api-call";

export interface ToolContext {
  api: ApiCall;
  principal: ApiPrincipal;
}

export type ToolInput = Record<string, unknown>;

export interface McpTool {
  name: string;
  title: string;
  description: string;
  /** The scope a key needs for the tool to exist in its session (alternatives: any one of them). */
  scope: ScopeNeed;
  /** Reads only (MCP's readOnlyHint), so a client may run it without asking. */
  readOnly: boolean;
  inputSchema(): Tool["inputSchema"];
  run(input: ToolInput, context: ToolContext): Promise<CallToolResult>;
}

interface Parameter {
  name: string;
  in: "path" | "query";
  required?: boolean;
  description?: string;
  schema: JsonObject;
}

interface Operation {
  summary: string;
  description?: string;
  parameters?: Parameter[];
  "x-scope"?: ApiScope;
  "x-scopes"?: ApiScope[];
}

/** An operation of the OpenAPI document: the API's own description of its parameters and scope. */
export function operationOf(method: string, path: string): Operation {
  const paths = openApiDocument().paths as Record<string, Record<string, Operation>>;
  const operation = paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`MCP tool: the OpenAPI document has no ${method} ${path}`);
  return operation;
}

export function scopeOf(operation: Operation): ScopeNeed {
  const scope = operation["x-scopes"] ?? operation["x-scope"];
  if (!scope) throw new Error(`MCP tool: operation "${operation.summary}" names no scope`);
  return scope;
}

/**
 * A tool's input: the operation's path and query parameters as the OpenAPI document describes them, and
 * the fields of its request body from the API's own zod schema. Only described: the API validates.
 */
export function inputSchemaOf(
  operation: Operation,
  body?: z.ZodObject,
  extra: Record<string, object> = {},
): Tool["inputSchema"] {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  for (const parameter of operation.parameters ?? []) {
    properties[parameter.name] = { ...parameter.schema, description: parameter.description };
    if (parameter.required) required.push(parameter.name);
  }
  if (body) {
    const schema = z.toJSONSchema(body, { io: "input", unrepresentable: "any", override: withoutNoise });
    Object.assign(properties, schema.properties as Record<string, object>);
    required.push(...((schema.required as string[] | undefined) ?? []));
  }
  Object.assign(properties, extra);
  return { type: "object", properties, ...(required.length ? { required } : {}) };
}

/** The request a tool input stands for: path parameters in the path, query parameters in the query, the rest the body. */
export function requestOf(path: string, operation: Operation, input: ToolInput) {
  const parameters = operation.parameters ?? [];
  const named = new Set(parameters.map((parameter) => parameter.name));
  const resolved = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = input[name];
    if (typeof value !== "string" || value.trim() === "") {
      const what = parameters.find((parameter) => parameter.name === name)?.description ?? name;
      throw invalidParameter(name, `${name} is required: ${what}`);
    }
    return encodeURIComponent(value);
  });
  const query = Object.fromEntries(
    parameters
      .filter((parameter) => parameter.in === "query")
      .map((parameter) => [parameter.name, input[parameter.name]]),
  );
  const rest = Object.fromEntries(Object.entries(input).filter(([name]) => !named.has(name)));
  return { path: resolved, query, rest };
}

export interface OperationToolSpec {
  name: string;
  title: string;
  method: "GET" | "POST" | "PATCH";
  /** The OpenAPI path, `{id}` for its parameters. */
  path: string;
  /** The request body's schema: the API's own. */
  body?: z.ZodObject;
  /** Said before the operation's own description. */
  lead?: string;
}

/** A tool that is one API operation: its scope, parameters and answers are the operation's. */
export function operationTool(spec: OperationToolSpec): McpTool {
  const operation = () => operationOf(spec.method, spec.path);
  const first = operation();
  return {
    name: spec.name,
    title: spec.title,
    description: [spec.lead, `${spec.method} ${spec.path}: ${first.summary}.`, first.description]
      .filter(Boolean)
      .join(" "),
    scope: scopeOf(first),
    readOnly: spec.method === "GET",
    inputSchema: () => inputSchemaOf(operation(), spec.body),
    run: async (input, { api }) => {
      let request;
      try {
        request = requestOf(spec.path, operation(), input);
      } catch (error) {
        return refusalResult(error);
      }
      const body = spec.method === "GET" ? undefined : request.rest;
      return toolResult(await api(spec.method, request.path, { query: request.query, body }));
    },
  };
}
