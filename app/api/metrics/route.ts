import { metricsResponse } from "@/lib/observability/responses";

// GET /api/metrics – Prometheus text format behind Bearer METRICS_TOKEN; 404 while it is unset.
export async function GET(request: Request): Promise<Response> {
  return metricsResponse(request);
}
