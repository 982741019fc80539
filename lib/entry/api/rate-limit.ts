import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { env } from "@/lib/foundation/env";
import { AppError } from "@/lib/foundation/errors";

/**
 * Per-API-key rate limit (docs/api.md#decided-limits: default 100 requests/s with a burst of 200).
 *
 * rate-limiter-flexible has no token bucket, so this is its BurstyRateLimiter: a fixed 1-second
 * window of RATE_LIMIT_PER_SECOND requests, and once that is spent a second allowance of
 * (RATE_LIMIT_BURST − RATE_LIMIT_PER_SECOND) requests that refills every BURST_WINDOW_SECONDS.
 * So a key may send up to RATE_LIMIT_BURST in one second, and 100 + 100/10 = 110/s at most over
 * time with the defaults (a long window keeps the sustained rate near the advertised one).
 *
 * Counters live in this process's memory: with several app processes each one allows that much.
 * docs/api.md (Rate limits) says how to share one limit through PostgreSQL (RateLimiterDrizzle).
 */
export const BURST_WINDOW_SECONDS = 10;

interface Limiter {
  rate: number;
  burst: number;
  combined: BurstyRateLimiter;
  extra: RateLimiterMemory;
}

let current: Limiter | undefined;

/** Built from env() on first use and rebuilt when the settings change (tests change them). */
function limiter(): Limiter | null {
  const { RATE_LIMIT_PER_SECOND: rate, RATE_LIMIT_BURST } = env();
  if (rate === 0) return null;
  const burst = Math.max(RATE_LIMIT_BURST, rate);
  if (current?.rate !== rate || current.burst !== burst) {
    const perSecond = new RateLimiterMemory({ keyPrefix: "api-rate", points: rate, duration: 1 });
    const extra = new RateLimiterMemory({
      keyPrefix: "api-burst",
      points: burst - rate,
      duration: BURST_WINDOW_SECONDS,
    });
    current = { rate, burst, combined: new BurstyRateLimiter(perSecond, extra), extra };
  }
  return current;
}

const seconds = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));

/**
 * Counts one request of the key. Fills `headers` with RateLimit-Limit (the most a key may send at
 * once: the burst), RateLimit-Remaining (how many more it may send right now) and RateLimit-Reset
 * (seconds until more become available); over the limit adds Retry-After and throws RATE_LIMITED.
 */
export async function consumeRateLimit(apiKeyId: string, headers: Record<string, string>): Promise<void> {
  const limits = limiter();
  if (!limits) return;
  let result: RateLimiterRes;
  let limited = false;
  try {
    result = await limits.combined.consume(apiKeyId);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    result = rejection;
    limited = true;
  }
  // The combined result only reports the per-second window; add what is left of the burst.
  const extra = await limits.extra.get(apiKeyId);
  const extraLeft = extra ? extra.remainingPoints : limits.burst - limits.rate;
  headers["ratelimit-limit"] = String(limits.burst);
  headers["ratelimit-remaining"] = String(limited ? 0 : result.remainingPoints + extraLeft);
  headers["ratelimit-reset"] = seconds(result.msBeforeNext);
  if (!limited) return;
  headers["retry-after"] = headers["ratelimit-reset"];
  throw new AppError(
    "RATE_LIMITED",
    `Too many requests with this API key: at most ${limits.rate} per second, bursts up to ${limits.burst}. Retry after ${headers["retry-after"]} s.`,
  );
}

/** The response with the rate-limit headers added (a copy: a Response's headers may be immutable). */
export function withRateLimitHeaders(response: Response, headers: Record<string, string>): Response {
  if (Object.keys(headers).length === 0) return response;
  const merged = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
}
