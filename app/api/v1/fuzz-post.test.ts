import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { withStorageEnv } from "@/lib/domain/attachments/testing";
import { countRows, describeCase, fuzzCase, hash32, mulberry32, startLatencySampler } from "@/lib/testing/fuzz";
import { insertTestMessage } from "@/lib/testing/fixtures";
import { callApi, callRoute } from "@/lib/testing/http";
import { API_ROUTES } from "../routes";
import { setLogLevel } from "@/lib/foundation/log";
import { sendBatch } from "@/lib/sending/send-batch";
import { sendMessage } from "@/lib/sending/send-message";
import { createEndpoint } from "@/lib/flows/webhooks/manage-endpoints";
import { createWorkflowWorkspace } from "@/lib/flows/workflows/testing";
import { addTestInboundDomain } from "@/lib/domain/inbound/route-testing";
import { insertTestInboundMessage } from "@/lib/domain/inbound/testing";
import { getDb } from "@/db/client";
import { inboundThreads } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { GET as listMessages } from "./email_messages/handlers";

/**
 * Seeded fuzz of every POST handler under app/api/v1 (found on disk, so a new one must be added to
 * ENDPOINTS below or the first test fails). Each case mutates a valid body (lib/testing/fuzz.ts) and
 * must get: a status under 500; for a refusal, the JSON envelope { error: { code, message } } and no
 * row written. Meanwhile GET /v1/email_messages is sampled and must keep answering 200 (latencies are
 * printed, not asserted: a bound on time belongs in a benchmark, bench/). FUZZ_CASES sets the total
 * number of cases (default 1,200: about 100 per endpoint that accepts POST); FUZZ_SEED replays a run
 * (every failure message starts with it).
 */

// The rate limit (100/s per key) would turn most cases into 429s, which prove nothing about the body.
// Webhook endpoints point at a local address in these cases (nothing listens there; nothing is delivered here).
// Domain verification is off: a DNS lookup of a made-up domain proves nothing about the body and may take seconds.
withStorageEnv({
  RATE_LIMIT_PER_SECOND: "0",
  WEBHOOKS_ALLOW_PRIVATE: "true",
  WEBHOOKS_ALLOW_HTTP: "true",
  DOMAIN_VERIFICATION: "off",
});

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 32)) >>> 0;
const TOTAL_CASES = Number(process.env.FUZZ_CASES ?? 1200);

type Workspace = Awaited<ReturnType<typeof setup>>;

/** An endpoint that accepts POST: its valid bodies (taken from its own tests) and its route params. */
interface Accepts {
  seeds: (ws: Workspace) => unknown[];
  params?: (ws: Workspace) => Record<string, string>;
  /** It reads no body, so no case can be refused (a batch cancel is always 200 for a known batch). */
  bodyless?: true;
}
/** A route that exports POST only to refuse it: its body is never read, but it is fuzzed all the same. */
interface Refuses {
  refuses: 404 | 405;
  params?: (ws: Workspace) => Record<string, string>;
}

const raw = {
  from: "Acme <hello@example.com>",
  to: "ann@example.org",
  cc: ["Carol <carol@example.org>"],
  subject: "Your receipt",
  bodyHtml: '<p>Thanks! <a href="https://example.com/r/1">View</a></p>',
  replyTo: "support@example.com",
  metadata: { orderId: 42, vip: true },
  headers: { references: "<abc@example.com>" },
  attachments: [{ name: "a.txt", contentType: "text/plain", contentBlob: "aGk=" }],
};
const fromTemplate = (ws: Workspace) => ({
  to: ["Ann <ann@example.org>"],
  templateId: ws.template.id,
  variables: { user: { name: "Ann" } },
  metaId: "fuzz-1",
});
const sends = (ws: Workspace) => [raw, fromTemplate(ws)];
const batches = (ws: Workspace) => [{ emailMessages: [raw, fromTemplate(ws)] }];
const runs = (ws: Workspace) => [
  { workflowKey: "user.signed_up", variables: { user: { email: "a@example.org", name: "A" } } },
  { workflowId: ws.workflow.id, variables: { user: { email: "b@example.org" } }, metaId: "run-1" },
];
const templateParams = (ws: Workspace) => ({ id: ws.template.id });
const newTemplate = {
  name: "Receipt",
  subject: "Receipt {{ order.id }}",
  bodyHtml: "<p>{{ order.total }}</p>",
  fromAddress: "Acme <hello@example.com>",
};
const workflowParams = (ws: Workspace) => ({ id: ws.workflow.id });
const newWorkflows = (ws: Workspace) => [
  {
    name: "Fuzzed",
    steps: [
      { type: "sendEmail", templateId: ws.template.id, to: "{{ user.email }}" },
      { type: "wait", seconds: 60 },
      { type: "sendEmail", templateId: ws.template.id, to: "x@example.org", groupKey: undefined },
    ],
  },
  {
    name: "Keyed",
    key: "fuzz.key",
    enabled: false,
    steps: [{ type: "sendEmail", templateId: ws.template.id, to: "{{ user.email }}", cc: "c@example.org" }],
  },
];
const endpointParams = (ws: Workspace) => ({ id: ws.endpointId });
const endpoints = () => [
  { url: "http://127.0.0.1:9/hooks", description: "fuzz", eventTypes: ["email.bounced", "email.opened"] },
  { url: "http://127.0.0.1:9/", eventTypes: null },
];

const ENDPOINTS: Record<string, Accepts | Refuses> = {
  "/api/v1/attachments": { seeds: () => [{ name: "report.pdf", contentType: "application/pdf", size: 3000 }, {}] },
  "/api/v1/batches": { seeds: batches },
  "/api/v1/email_messages": { seeds: sends },
  "/api/v1/email_messages/:id/resend": {
    seeds: () => [{ metaId: "resend-1" }, {}],
    params: (ws) => ({ id: ws.messageId }),
  },
  // Cancels take no body: whatever is sent is ignored, and a message already handed over is a 409.
  "/api/v1/email_messages/:id/cancel": { seeds: () => [{}], params: (ws) => ({ id: ws.scheduledId }) },
  "/api/v1/batches/:id/cancel": { seeds: () => [{}], params: (ws) => ({ id: ws.scheduledBatchId }), bodyless: true },
  "/api/v1/email_messages_batch/:id/cancel": {
    seeds: () => [{}],
    params: (ws) => ({ id: ws.scheduledBatchId }),
    bodyless: true,
  },
  "/api/v1/email_messages_batch": { seeds: batches },
  "/api/v1/sandbox/batches": { seeds: batches },
  "/api/v1/sandbox/email_messages": { seeds: sends },
  "/api/v1/sandbox/email_messages_batch": { seeds: batches },
  "/api/v1/sandbox/workflow_runs": { seeds: runs },
  "/api/v1/templates/:id/preview": { seeds: () => [{ user: { name: "Bo" } }], params: templateParams },
  "/api/v1/templates/:id/render": { seeds: () => [{ variables: { user: { name: "Ann" } } }], params: templateParams },
  "/api/v1/templates/:id/check": {
    seeds: () => [{ variables: { user: { name: "Ann" } }, locale: "fr-CA", groupMail: true }],
    params: templateParams,
  },
  "/api/v1/templates": {
    seeds: () => [
      newTemplate,
      {
        ...newTemplate,
        kind: "blocks",
        blocks: { root: { type: "EmailLayout", data: { childrenIds: [] } } },
        strict: true,
      },
    ],
  },
  "/api/v1/templates/validate": {
    seeds: () => [
      {
        subject: "Hi {{ user.name }}",
        bodyHtml: "<p>{% if vip %}VIP{% endif %}</p>",
        variables: { user: { name: "Ann" } },
      },
    ],
  },
  "/api/v1/templates/:id/scenarios": {
    seeds: () => [{ name: "New customer", variables: { user: { name: "Ada" } } }],
    params: templateParams,
  },
  // Restoring reads no field (If-Match is a header): a JSON body of any shape is accepted and ignored.
  "/api/v1/templates/:id/versions/:version/restore": {
    seeds: () => [{}],
    params: (ws) => ({ id: ws.template.id, version: "1" }),
  },
  "/api/v1/workflow_runs": { seeds: runs },
  "/api/v1/workflows": { seeds: newWorkflows },
  // Enabling and disabling read no body: whatever is sent is ignored.
  "/api/v1/workflows/:id/enable": { seeds: () => [{}], params: workflowParams, bodyless: true },
  "/api/v1/workflows/:id/disable": { seeds: () => [{}], params: workflowParams, bodyless: true },
  "/api/v1/webhook_endpoints": { seeds: endpoints },
  "/api/v1/webhook_endpoints/:id/replay": {
    seeds: () => [{ since: "2026-01-01T00:00:00.000Z", mode: "all" }, { since: "2026-01-01T00:00:00Z" }],
    params: endpointParams,
  },
  "/api/v1/webhook_endpoints/:id/rotate_secret": { seeds: () => [{}], params: endpointParams },
  "/api/v1/webhook_endpoints/:id/test": { seeds: () => [{}], params: endpointParams },
  // Management (each fuzzed by an API key with full).
  "/api/v1/domains": { seeds: () => [{ name: "fuzz.example.org" }, { name: "Mail.Fuzz.Example.ORG." }] },
  "/api/v1/domains/:id/verify": { seeds: () => [{}], params: (ws) => ({ id: ws.domain.id }), bodyless: true },
  "/api/v1/suppressions": {
    seeds: () => [{ email: "fuzz@example.org", reason: "MANUAL", detail: "fuzz" }, { email: "Ann <ann@example.org>" }],
  },
  "/api/v1/api_keys": {
    seeds: () => [
      {
        name: "fuzz",
        scopes: ["emails:send"],
        allowedSenders: ["example.com"],
        allowedIps: ["10.0.0.0/8"],
        expiresAt: "2099-01-01T00:00:00Z",
      },
      { name: "full" },
    ],
  },
  "/api/v1/unsubscribe_groups": {
    seeds: () => [
      { key: "fuzz-news", name: "Fuzz news" },
      { key: "fuzz:alerts_1", name: "Alerts" },
    ],
  },
  "/api/v1/inbound_domains": { seeds: () => [{ name: "in.fuzz.example.org" }, { name: "In2.Fuzz.Example.ORG." }] },
  "/api/v1/inbound_domains/:id/verify": {
    seeds: () => [{}],
    params: (ws) => ({ id: ws.inboundDomainId }),
    bodyless: true,
  },
  "/api/v1/inbound_routes": {
    seeds: () => [
      {
        pattern: "support+{hash}@routes.fuzz.example.org",
        actions: [{ type: "webhook" }, { type: "forward", to: "team@example.org", from: "hello@example.com" }],
        spamThreshold: 5,
      },
      { pattern: "*@routes.fuzz.example.org", name: "all", actions: [{ type: "reject", code: 550, message: "No" }] },
    ],
  },
  // No host to resolve (a URL would be looked up): the simulator, and Resend at its default base URL.
  "/api/v1/providers": {
    seeds: () => [
      { name: "fuzz-sim", kind: "simulator", ratePerSecond: 10 },
      { name: "fuzz-resend", kind: "resend", apiKey: "re_fuzz_0123456789", concurrency: 2 },
    ],
  },
  "/api/v1/routing_rules": {
    seeds: () => [
      { name: "Partners", match: { recipientDomains: ["*.fuzz.example.org"] }, connections: ["default"] },
      { match: { streams: ["bulk"], senderDomains: ["example.com"] }, connections: ["default"], enabled: false },
    ],
  },
  "/api/v1/routing_rules/dry_run": {
    seeds: () => [{ from: "hello@example.com", to: ["ada@fuzz.example.org"], tags: ["stream:bulk"] }],
  },
  "/api/v1/providers/:id": { refuses: 405 },
  "/api/v1/routing_rules/:id": { refuses: 405 },
  "/api/v1/inbound_messages/:id/reply": {
    seeds: () => [{ from: "hello@example.com", bodyHtml: "<p>Thanks</p>" }],
    params: (ws) => ({ id: ws.inboundMessageId }),
  },
  "/api/v1/threads/:id/reply": {
    seeds: () => [{ from: "hello@example.com", bodyHtml: "<p>Thanks</p>", subject: "Re: x" }],
    params: (ws) => ({ id: ws.threadId }),
  },
  // Pause, then resume (in this order: the cases between them send nothing, and the workspace ends live).
  "/api/v1/workspace/pause": { seeds: () => [{ reason: "fuzz" }, {}] },
  "/api/v1/workspace/resume": { seeds: () => [{}], bodyless: true },
  // Known paths that export POST as a 405 with Allow, and the catch-all's JSON 404.
  "/api/v1/[...path]": { refuses: 404 },
  "/api/v1/batches/:id": { refuses: 405 },
  "/api/v1/batches/:id/email_messages": { refuses: 405 },
  "/api/v1/email_messages/:id": { refuses: 405 },
  "/api/v1/email_messages/:id/events": { refuses: 405 },
  "/api/v1/openapi.json": { refuses: 405 },
  "/api/v1/templates/:id": { refuses: 405, params: templateParams },
  "/api/v1/templates/:id/versions": { refuses: 405, params: templateParams },
  "/api/v1/templates/:id/versions/:version": { refuses: 405 },
  "/api/v1/templates/:id/scenarios/:scenarioId": { refuses: 405 },
  "/api/v1/templates/:id/raw": { refuses: 405, params: templateParams },
  "/api/v1/templates/:id/locales": { refuses: 405, params: templateParams },
  "/api/v1/templates/:id/locales/:locale": { refuses: 405, params: (ws) => ({ id: ws.template.id, locale: "fr" }) },
  "/api/v1/templates/:id/locales/:locale/messages": {
    refuses: 405,
    params: (ws) => ({ id: ws.template.id, locale: "fr" }),
  },
  "/api/v1/workflow_runs/:id": { refuses: 405 },
  "/api/v1/workflows/:id": { refuses: 405, params: workflowParams },
  "/api/v1/events": { refuses: 405 },
  "/api/v1/audit_events": { refuses: 405 },
  "/api/v1/webhook_endpoints/:id": { refuses: 405 },
  "/api/v1/webhook_endpoints/:id/deliveries": { refuses: 405 },
  "/api/v1/webhook_endpoints/:id/deliveries/:deliveryId": { refuses: 405 },
  "/api/v1/domains/:id": { refuses: 405 },
  "/api/v1/domains/:id/requirements": { refuses: 405 },
  "/api/v1/domains/:id/dmarc": { refuses: 405 },
  "/api/v1/suppressions/:email": { refuses: 405 },
  "/api/v1/api_keys/:id": { refuses: 405 },
  "/api/v1/workspace": { refuses: 405 },
  "/api/v1/contacts": { refuses: 405 },
  "/api/v1/contacts/:id": { refuses: 405 },
  "/api/v1/contacts/:id/unsubscribes": { refuses: 405 },
  "/api/v1/unsubscribe_groups/:id": { refuses: 405 },
  "/api/v1/inbound_domains/:id": { refuses: 405 },
  "/api/v1/inbound_routes/:id": { refuses: 405 },
  "/api/v1/inbound_messages": { refuses: 405 },
  "/api/v1/inbound_messages/:id": { refuses: 405 },
  "/api/v1/inbound_messages/:id/raw": { refuses: 405 },
  "/api/v1/inbound_messages/:id/attachments/:attachmentId": { refuses: 405 },
  "/api/v1/threads": { refuses: 405 },
  "/api/v1/threads/:id": { refuses: 405 },
};

/** Every path of the route table (each answers POST: its handler, or 405) and an unknown path (the JSON 404). */
function postRoutes(): Array<{ path: string }> {
  return [...API_ROUTES.map(([pattern]) => ({ path: `/api/v1${pattern}` })), { path: "/api/v1/[...path]" }];
}

async function setup() {
  const ws = await createWorkflowWorkspace();
  const workflow = await ws.createWorkflow({
    key: "user.signed_up",
    steps: [{ type: "sendEmail", templateId: ws.template.id, to: "{{ user.email }}" }],
  });
  // A stored live message for POST /v1/email_messages/:id/resend to copy.
  const messageId = await insertTestMessage(ws.workspace.id);
  // An endpoint for the replay, rotate_secret and test cases.
  const { endpoint } = await createEndpoint(ws.workspace.id, { url: "http://127.0.0.1:9/" }, "fuzz");
  // An inbound domain for the verify and route cases.
  const inbound = await addTestInboundDomain(ws.workspace.id, "routes.fuzz.example.org");
  // A received mail in a thread for the reply cases.
  const thread = await (
    await getDb()
  )
    .insert(inboundThreads)
    .values({ id: newId("inboundThread"), workspaceId: ws.workspace.id, subjectKey: "x" })
    .returning();
  const received = await insertTestInboundMessage(ws.workspace.id, {
    threadId: thread[0].id,
    messageIdHeader: "<q@example.org>",
  });
  // A scheduled message and batch for the cancels: the first case cancels (200), the rest are 409 or list the state.
  const scheduledAt = new Date(Date.now() + 24 * 3600_000).toISOString();
  const scheduled = await sendMessage({ workspaceId: ws.workspace.id, sandbox: false, body: { ...raw, scheduledAt } });
  const batch = await sendBatch({
    workspaceId: ws.workspace.id,
    sandbox: false,
    body: { scheduledAt, emailMessages: [raw] },
  });
  return {
    ...ws,
    workflow,
    messageId,
    endpointId: endpoint.id,
    inboundDomainId: inbound.domain.id,
    inboundMessageId: received.id,
    threadId: thread[0].id,
    scheduledId: scheduled.message.id,
    scheduledBatchId: batch.batch.id,
  };
}

/** Cases per route: a share of TOTAL_CASES, endpoints that accept POST weighing 10 times a refusing route. */
function casesFor(endpoint: Accepts | Refuses): number {
  const weights = Object.values(ENDPOINTS).map((other) => ("refuses" in other ? 1 : 10));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return Math.max(1, Math.round((TOTAL_CASES * ("refuses" in endpoint ? 1 : 10)) / total));
}

/**
 * Error lines the server logs (an unhandled error's message and stack), so a 5xx's failure says why:
 * a seed replays the case, not a race it lost.
 */
const serverErrors: string[] = [];
function captureServerErrors() {
  setLogLevel("error");
  const write = process.stderr.write.bind(process.stderr) as (...args: unknown[]) => boolean;
  const capture = (chunk: string | Uint8Array, ...rest: unknown[]) => {
    const line = String(chunk);
    if (line.includes('"level":"error"')) serverErrors.push(line.slice(0, 4000));
    if (serverErrors.length > 20) serverErrors.shift();
    return write(chunk, ...rest);
  };
  vi.spyOn(process.stderr, "write").mockImplementation(capture as typeof process.stderr.write);
}

interface Tally {
  statuses: Record<number, number>;
  slowestMs: number;
}

/** Runs one route's cases, asserting each; returns how they were answered. */
async function fuzzRoute(ws: Workspace, route: { path: string }, endpoint: Accepts | Refuses): Promise<Tally> {
  const rng = mulberry32(SEED ^ hash32(route.path));
  const params: Record<string, string> = endpoint.params?.(ws) ?? {};
  const url = route.path
    .replace(/:(\w+)/g, (_, name: string) => params[name] ?? "x_0000000000000000")
    .replace("[...path]", "no/such/endpoint");
  const seeds = "seeds" in endpoint ? endpoint.seeds(ws) : [{ to: "ann@example.org" }];
  const tally: Tally = { statuses: {}, slowestMs: 0 };
  let rows = await countRows(ws.workspace.id);
  for (let index = 0; index < casesFor(endpoint); index++) {
    // A turn of the event loop between cases, so the sampler's timer fires and its read runs alongside the next case.
    await new Promise((resolve) => setImmediate(resolve));
    const fuzz = fuzzCase(rng, seeds);
    const headers: Record<string, string> = fuzz.contentType === null ? {} : { "content-type": fuzz.contentType };
    const started = performance.now();
    const res = await callApi(url, { method: "POST", authorization: ws.authorization, rawBody: fuzz.body, headers });
    const ms = performance.now() - started;
    const logged = res.status >= 500 ? `\nthe server logged: ${serverErrors.splice(0).join("\n") || "nothing"}` : "";
    const where = `FUZZ_SEED=${SEED} POST ${route.path} case ${index}: ${describeCase(fuzz)}\n→ ${res.status} ${res.text.slice(0, 300)}${logged}`;
    expect(res.status, where).toBeLessThan(500);
    const after = await countRows(ws.workspace.id);
    if (res.status >= 400) {
      expect(res.json?.error, where).toEqual(
        expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
      );
      expect(after, `${where}\nrows written by a refused request`).toEqual(rows);
    }
    if ("refuses" in endpoint) expect(res.status, where).toBe(endpoint.refuses);
    rows = after;
    tally.statuses[res.status] = (tally.statuses[res.status] ?? 0) + 1;
    tally.slowestMs = Math.max(tally.slowestMs, ms);
  }
  return tally;
}

describe(`fuzzing every POST under /v1 (FUZZ_SEED=${SEED}, FUZZ_CASES=${TOTAL_CASES})`, () => {
  let ws: Workspace;
  let sampler: ReturnType<typeof startLatencySampler>;
  const tallies: Record<string, Tally> = {};

  beforeAll(async () => {
    captureServerErrors();
    ws = await setup();
    // The parallel reader: sampled on a timer while the cases run, never two at once.
    sampler = startLatencySampler(async () => {
      const res = await callRoute(listMessages, "/api/v1/email_messages", { authorization: ws.authorization });
      return res.status === 200 ? null : `GET /v1/email_messages answered ${res.status}: ${res.text.slice(0, 200)}`;
    });
  });
  afterAll(async () => {
    await sampler?.stop();
    const { count, maxMs, totalMs } = sampler?.stats ?? { count: 0, maxMs: 0, totalMs: 0 };
    console.info(
      `fuzz FUZZ_SEED=${SEED}: ${count} parallel reads, mean ${Math.round(totalMs / count)} ms, max ${Math.round(maxMs)} ms`,
      JSON.stringify(tallies),
    );
  });

  it("knows every route that exports POST", async () => {
    const found = postRoutes()
      .map((route) => route.path)
      .sort();
    expect(found).toEqual(Object.keys(ENDPOINTS).sort());
  });

  it.each(Object.keys(ENDPOINTS))(
    "POST %s: every case under 500, refusals in the envelope writing nothing",
    async (routePath) => {
      const route = postRoutes().find((candidate) => candidate.path === routePath);
      expect(route, routePath).toBeDefined();
      const endpoint = ENDPOINTS[routePath];
      const tally = await fuzzRoute(ws, route!, endpoint);
      tallies[routePath] = tally;
      if ("seeds" in endpoint && casesFor(endpoint) >= 50) {
        // The generator reaches both sides: some cases are accepted, some refused.
        const statuses = Object.keys(tally.statuses).map(Number);
        expect(
          statuses.some((status) => status < 300),
          JSON.stringify(tally),
        ).toBe(true);
        if (!endpoint.bodyless)
          expect(
            statuses.some((status) => status >= 400),
            JSON.stringify(tally),
          ).toBe(true);
      }
    },
    120_000,
  );

  it("kept GET /v1/email_messages answering 200 while the cases ran", async () => {
    await sampler.stop();
    expect(sampler.stats.failures).toEqual([]);
    expect(sampler.stats.count, "reads sampled while the cases ran (one every 200 ms)").toBeGreaterThan(0);
  });
});
