import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { activityLogs } from "@/db/schema";
import { flushActivityLog } from "@/lib/records/activity/record-activity";
import { resetEnvForTests } from "@/lib/foundation/env";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { BURST_WINDOW_SECONDS } from "./rate-limit";
import { ok } from "./respond";
import { withApiKey } from "./with-api-key";

// A real wrapped handler: authentication, rate limit and activity log are the production ones.
const GET = withApiKey({ scope: "emails:read", body: "none" }, async () => ok({ id: "em_0000000000000000" }));
const preview = withApiKey(
  { scope: "emails:read", body: "none" },
  async () => new Response("<p>hi</p>", { headers: { "content-type": "text/html" } }),
);

function limit(perSecond: string, burst: string) {
  process.env.RATE_LIMIT_PER_SECOND = perSecond;
  process.env.RATE_LIMIT_BURST = burst;
  resetEnvForTests();
}

describe("rate limit per API key", () => {
  beforeEach(() => limit("2", "3"));
  afterEach(() => {
    delete process.env.RATE_LIMIT_PER_SECOND;
    delete process.env.RATE_LIMIT_BURST;
    resetEnvForTests();
  });

  it("allows the rate plus the burst, then answers 429 with Retry-After; logged; other keys unaffected", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    // Sequential, well inside one second: 2 from the per-second window, 1 from the burst, then 429.
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push(await callRoute(GET, "/api/v1/email_messages", { authorization: ws.authorization }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((a) => a.headers.get("ratelimit-remaining"))).toEqual(["2", "1", "0", "0"]);
    for (const answer of answers) {
      expect(answer.headers.get("ratelimit-limit")).toBe("3");
      expect(Number(answer.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);
    }
    expect(answers[0].headers.get("retry-after")).toBeNull();

    const limited = answers[3];
    expect(limited.json).toEqual({
      error: { code: "RATE_LIMITED", message: expect.stringContaining("at most 2 per second") },
    });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(BURST_WINDOW_SECONDS);

    const fresh = await callRoute(GET, "/api/v1/email_messages", { authorization: other.authorization });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("ratelimit-remaining")).toBe("2");

    await flushActivityLog();
    const logged = await (
      await getDb()
    )
      .select({ status: activityLogs.status, errorCode: activityLogs.errorCode })
      .from(activityLogs)
      .where(and(eq(activityLogs.workspaceId, ws.workspace.id), eq(activityLogs.status, 429)));
    expect(logged).toEqual([{ status: 429, errorCode: "RATE_LIMITED" }]);
  });

  it("refills the per-second window after a second", async () => {
    limit("1", "1");
    const ws = await createTestWorkspace();
    expect((await callRoute(GET, "/api/v1/email_messages", { authorization: ws.authorization })).status).toBe(200);
    const limited = await callRoute(GET, "/api/v1/email_messages", { authorization: ws.authorization });
    expect(limited.status).toBe(429);
    // A sleep, not a poll: what is tested is that the window has refilled once Retry-After has passed.
    await new Promise((resolve) => setTimeout(resolve, Number(limited.headers.get("retry-after")) * 1000 + 50));
    expect((await callRoute(GET, "/api/v1/email_messages", { authorization: ws.authorization })).status).toBe(200);
  });

  it("adds the headers to handler-built responses and to errors, not to unauthenticated requests", async () => {
    const ws = await createTestWorkspace();
    const html = await callRoute(preview, "/api/v1/templates/tpl_x/preview", { authorization: ws.authorization });
    expect(html.status).toBe(200);
    expect(html.text).toBe("<p>hi</p>");
    expect(html.headers.get("content-type")).toBe("text/html");
    expect(html.headers.get("ratelimit-remaining")).toBe("2");

    const unauthenticated = await callRoute(GET, "/api/v1/email_messages");
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get("ratelimit-limit")).toBeNull();
  });

  it("is off when RATE_LIMIT_PER_SECOND=0", async () => {
    limit("0", "0");
    const ws = await createTestWorkspace();
    for (let i = 0; i < 5; i++) {
      const answer = await callRoute(GET, "/api/v1/email_messages", { authorization: ws.authorization });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("ratelimit-limit")).toBeNull();
    }
  });

  it("uses the documented defaults: 100 per second, bursts of 200", async () => {
    delete process.env.RATE_LIMIT_PER_SECOND;
    delete process.env.RATE_LIMIT_BURST;
    resetEnvForTests();
    const ws = await createTestWorkspace();
    const answer = await callRoute(GET, "/api/v1/email_messages", { authorization: ws.authorization });
    expect(answer.headers.get("ratelimit-limit")).toBe("200");
    expect(answer.headers.get("ratelimit-remaining")).toBe("199");
  });
});
