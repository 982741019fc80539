import { readyResponse } from "@/lib/observability/responses";

// GET /api/health/ready – readiness: database, migrations, queue, worker loops; 503 when one fails. No auth.
export async function GET(): Promise<Response> {
  return readyResponse();
}
