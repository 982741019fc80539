import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";

// Per address and client IP, in memory; counted before the answer is known, so a throttled unknown address looks
// like a throttled known one.
export const SIGN_IN_LIMITS = {
  password: { points: 10, duration: 15 * 60 },
  link: { points: 5, duration: 15 * 60 },
} as const;

export type SignInKind = keyof typeof SIGN_IN_LIMITS;

const limiters = new Map<SignInKind, RateLimiterMemory>();

function limiterFor(kind: SignInKind): RateLimiterMemory {
  let limiter = limiters.get(kind);
  if (!limiter) {
    limiter = new RateLimiterMemory({ keyPrefix: `sign-in-${kind}`, ...SIGN_IN_LIMITS[kind] });
    limiters.set(kind, limiter);
  }
  return limiter;
}

export type ThrottleResult = { allowed: true } | { allowed: false; retryAfterSeconds: number; message: string };

export async function consumeSignInAttempt(kind: SignInKind, email: string, ip: string): Promise<ThrottleResult> {
  const key = `${email.trim().toLowerCase()}|${ip}`;
  try {
    await limiterFor(kind).consume(key);
    return { allowed: true };
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const retryAfterSeconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    const minutes = Math.ceil(retryAfterSeconds / 60);
    const wait = minutes <= 1 ? "a minute" : `${minutes} minutes`;
    return {
      allowed: false,
      retryAfterSeconds,
      message: `Too many sign-in attempts for this address. Try again in ${wait}.`,
    };
  }
}
