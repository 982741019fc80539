import { metricsResponse } from "@/lib/entry/observability/responses";

// Answered per request, never prerendered at build time (docs/development.md#traps, trap 3).
export const dynamic = "force-dynamic";

// GET /api/metrics – Prometheus text format behind Bearer METRICS_TOKEN; 404 while it is unset.
export async function GET(request: Request): Promise<Response> {
  return metricsResponse(request);
}
