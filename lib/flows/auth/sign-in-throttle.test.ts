import { describe, expect, it } from "vitest";
import { randomBase62 } from "@/lib/foundation/ids";
import { consumeSignInAttempt, SIGN_IN_LIMITS } from "./sign-in-throttle";

describe("consumeSignInAttempt", () => {
  it("allows the configured attempts per email and IP, then says how long to wait; other pairs are unaffected", async () => {
    const email = `Someone-${randomBase62(6)}@example.org`;
    for (let i = 0; i < SIGN_IN_LIMITS.link.points; i++) {
      expect(await consumeSignInAttempt("link", i % 2 ? email : email.toLowerCase(), "10.0.0.1")).toEqual({
        allowed: true,
      });
    }
    const refused = await consumeSignInAttempt("link", email, "10.0.0.1");
    expect(refused).toMatchObject({
      allowed: false,
      message: expect.stringMatching(/^Too many sign-in attempts for this address\. Try again in \d+ minutes\.$/),
    });
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThan(60);

    expect(await consumeSignInAttempt("link", email, "10.0.0.2")).toEqual({ allowed: true });
    expect(await consumeSignInAttempt("password", email, "10.0.0.1")).toEqual({ allowed: true });
  });
});
