import { liveResponse } from "@/lib/entry/observability/responses";

// Answered per request, never prerendered at build time (docs/development.md#traps, trap 3).
export const dynamic = "force-dynamic";

// GET /api/health/live – liveness: the process answers (docs/self-hosting.md#health-checks). No auth.
export async function GET(): Promise<Response> {
  return liveResponse();
}
