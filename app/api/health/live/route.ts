import { liveResponse } from "@/lib/observability/responses";

// GET /api/health/live – liveness: the process answers (docs/self-hosting.md#health-checks). No auth.
export async function GET(): Promise<Response> {
  return liveResponse();
}
