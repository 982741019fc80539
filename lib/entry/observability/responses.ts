import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/foundation/env";
import { metrics } from "@/lib/foundation/metrics/metrics";
import { VERSION } from "@/lib/foundation/version";
import { collectScrapeGauges } from "./collect-metrics";
import { readiness } from "./health";

// Shared by the Next.js routes and the worker's own listener, so both say the same.
const headers = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

/** The process answers: nothing is checked, so a slow database never gets a live process restarted. */
export function liveResponse(): Response {
  return new Response(JSON.stringify({ status: "ok", version: VERSION }), { status: 200, headers });
}

/** 200 when every check passes, else 503; the body names each check with its status and duration. */
export async function readyResponse(): Promise<Response> {
  const result = await readiness();
  return new Response(JSON.stringify(result), { status: result.status === "ok" ? 200 : 503, headers });
}

/** Behind `Authorization: Bearer METRICS_TOKEN`; without the token the endpoint is a 404, so nothing is exposed. */
export async function metricsResponse(request: Request): Promise<Response> {
  const token = env().METRICS_TOKEN;
  if (!token)
    return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  if (!bearerMatches(request.headers.get("authorization"), token)) {
    return new Response("Unauthorized\n", {
      status: 401,
      headers: { "content-type": "text/plain; charset=utf-8", "www-authenticate": 'Bearer realm="metrics"' },
    });
  }
  await collectScrapeGauges();
  const { registry } = metrics();
  return new Response(await registry.metrics(), {
    status: 200,
    headers: { "content-type": registry.contentType, "cache-control": "no-store" },
  });
}

/** Compared as SHA-256 digests: equal length always, so timingSafeEqual reveals neither length nor content. */
function bearerMatches(header: string | null, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  if (!match) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(match[1].trim()), digest(token));
}
