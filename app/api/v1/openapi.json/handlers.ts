import { openApiDocument } from "@/lib/entry/api/openapi/document";
import { jsonResponse } from "@/lib/entry/api/respond";

// GET /v1/openapi.json – this API's OpenAPI 3.1 document: public, cacheable for 5 minutes
export async function GET(): Promise<Response> {
  return jsonResponse({
    status: 200,
    body: openApiDocument(),
    headers: { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" },
  });
}
