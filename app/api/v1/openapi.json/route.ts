import { openApiDocument } from "@/lib/entry/api/openapi/document";
import { jsonResponse } from "@/lib/entry/api/respond";
import { methodNotAllowed } from "@/lib/entry/api/with-api-key";

// Built per process on first request, never at build time (docs/development.md#traps, trap 3).
export const dynamic = "force-dynamic";

// GET /v1/openapi.json – this API's OpenAPI 3.1 document: public, cacheable for 5 minutes
export async function GET(): Promise<Response> {
  return jsonResponse({
    status: 200,
    body: openApiDocument(),
    headers: { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" },
  });
}

const notAllowed = methodNotAllowed("GET");
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
