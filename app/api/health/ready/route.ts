import { readyResponse } from "@/lib/entry/observability/responses";

// Answered per request, never prerendered at build time (docs/development.md#traps, trap 3).
export const dynamic = "force-dynamic";

// GET /api/health/ready – readiness: database, migrations, queue, worker loops; 503 when one fails. No auth.
export async function GET(): Promise<Response> {
  return readyResponse();
}
