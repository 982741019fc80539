import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvForTests } from "@/lib/foundation/env";
import { newId } from "@/lib/foundation/ids";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { callRoute } from "@/lib/testing/http";
import { POST as send } from "../v1/email_messages/handlers";
import { GET } from "./route";

const TOKEN = "metrics-token-0123456789abcdef";

function withToken(token: string | undefined) {
  if (token) process.env.METRICS_TOKEN = token;
  else delete process.env.METRICS_TOKEN;
  resetEnvForTests();
}

describe("GET /api/metrics", () => {
  afterEach(() => withToken(undefined));

  it("does not exist while METRICS_TOKEN is unset", async () => {
    withToken(undefined);
    const res = await callRoute(GET, "/api/metrics", { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(404);
  });

  it("answers 401 without the token or with a wrong one", async () => {
    withToken(TOKEN);
    expect((await callRoute(GET, "/api/metrics")).status).toBe(401);
    const wrong = await callRoute(GET, "/api/metrics", { authorization: "Bearer not-the-token-at-all" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await callRoute(GET, "/api/metrics", { authorization: `Basic ${TOKEN}` })).status).toBe(401);
  });

  it("renders the service's metrics in Prometheus text format after a send and its delivery", async () => {
    withToken(TOKEN);
    const ws = await createTestWorkspace();
    const sent = await callRoute(send, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: { from: "Acme <hello@example.com>", to: "jane@example.org", subject: "Hi", bodyHtml: "<p>Hi</p>" },
    });
    expect(sent.status).toBe(201);
    await deliverMessage({ workspaceId: ws.workspace.id, messageId: sent.json.data.id }, { attempt: 0 });

    const res = await callRoute(GET, "/api/metrics", { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = res.text;
    expect(text).toMatch(
      /postwerk_http_requests_total\{route="\/api\/v1\/email_messages",method="POST",status="201"\} \d+/,
    );
    expect(text).toMatch(
      /postwerk_http_request_duration_seconds_bucket\{le="[^"]+",route="\/api\/v1\/email_messages",method="POST"\}/,
    );
    expect(text).toMatch(/postwerk_messages_accepted_total\{source="API",sandbox="false"\} \d+/);
    expect(text).toMatch(/postwerk_provider_handoffs_total\{provider="local",outcome="accepted"\} \d+/);
    expect(text).toMatch(/postwerk_delivery_accept_to_sent_seconds_count\{provider="local"\} \d+/);
    expect(text).toMatch(/postwerk_queue_jobs\{queue="deliver-message",state="created"\} \d+/);
    expect(text).toMatch(/postwerk_queue_oldest_ready_job_age_seconds\{queue="deliver-message"\} [\d.e+-]+/);
    expect(text).toMatch(/postwerk_workspaces_paused \d+/);
    expect(text).toMatch(/postwerk_workspaces_deliverability_warning \d+/);
    expect(text).toContain("process_resident_memory_bytes");
    if (process.env.DATABASE_URL) expect(text).toMatch(/postwerk_database_connections\{state="[a-z ]+"\} \d+/);
  });

  it("names the running build: postwerk_build_info with package.json's version and Node's, always 1", async () => {
    withToken(TOKEN);
    const { version } = JSON.parse(fs.readFileSync("package.json", "utf8"));
    const text = (await callRoute(GET, "/api/metrics", { authorization: `Bearer ${TOKEN}` })).text;
    expect(text).toContain("# TYPE postwerk_build_info gauge");
    expect(text).toContain(`postwerk_build_info{version="${version}",node="${process.version}"} 1\n`);
  });

  it("labels a route by its template, never by the ids in its path", async () => {
    withToken(TOKEN);
    const ws = await createTestWorkspace();
    const { GET: getMessage } = await import("../v1/email_messages/[id]/handlers");
    // An id of today that names no message: 404 (an id older than the retention window would be a 410).
    const unknown = newId("message");
    await callRoute(getMessage, `/api/v1/email_messages/${unknown}`, {
      authorization: ws.authorization,
      params: { id: unknown },
    });
    const text = (await callRoute(GET, "/api/metrics", { authorization: `Bearer ${TOKEN}` })).text;
    expect(text).toMatch(/route="\/api\/v1\/email_messages\/:id",method="GET",status="404"/);
    expect(text).not.toContain(unknown);
  });
});
