/**
 * npm run bench:render [-- --skip-build --duration 10 --connections 64 --rounds 2]
 * npm run bench:render -- --locales [--renders 2000 --rounds 5]: a template with 30 locale variants against
 * the same with 1, in process (bench/support/render-locales.ts); nothing is built or served.
 *
 * `POST /api/v1/templates/:id/render` against the framework's floor, in one run on one server: the
 * built app on a scratch PostgreSQL database (RUN_WORKER=false, rate limit off), a ~3 KB Liquid
 * template (variables, a loop, a filter, no text part: the text is derived from the HTML, as most
 * templates are), driven by autocannon at `--connections`. Each round measures the floor (Next.js's
 * JSON 404 of an unknown /api/v1 path, through its routing: THROUGH_NEXT), the same 404 from the
 * router (lib/entry/http/node-door.ts, the door the render takes) and then the render, after a
 * warm-up of each; prints req/s, p50/p99 and the render's share of the floor, and the load average
 * (the machine is shared). A benchmark, not a test.
 */
import os from "node:os";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { closeDb, installDbHandle, openPostgres } from "@/db/client";
import { createTemplate } from "@/lib/domain/templates/create-template";
import {
  BENCH_AUTH,
  BENCH_KEY_USERNAME,
  build,
  scratchPostgres,
  startServer,
  tempDir,
  THROUGH_NEXT,
} from "./support/server";
import { runLocaleBench } from "./support/render-locales";
import { firstRow } from "./support/seed-messages";

const { values: args } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    locales: { type: "boolean", default: false },
    renders: { type: "string", default: "2000" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "64" },
    rounds: { type: "string", default: "2" },
    "pg-url": {
      type: "string",
      default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
    port: { type: "string", default: "3223" },
  },
});
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const headers = { authorization: BENCH_AUTH, "content-type": "application/json" };

const TEMPLATE_HTML = `<!doctype html><html><body style="font-family:sans-serif">
<h1>Your order, {{ customer.name }}</h1>
<p>Thanks for shopping with {{ shop | default: "us" }}. Order <strong>{{ order.number }}</strong> is on its way.</p>
<table>{% for item in order.items %}<tr><td>{{ item.title | truncate: 40 }}</td><td>{{ item.quantity }}</td><td>{{ item.price | currency }}</td></tr>{% endfor %}</table>
<p>Total: {{ order.total | currency }} — {{ order.items.size }} {{ order.items.size | pluralize: "item", "items" }}</p>
${'<p>Questions? Reply to this email or visit <a href="https://example.com/help">our help centre</a>. We answer within a day.</p>\n'.repeat(20)}
<p><a href="{{ unsubscribeUrl }}">Unsubscribe</a></p></body></html>`;
const VARIABLES = {
  customer: { name: "Ada Lovelace" },
  shop: "Postwerk Supplies",
  order: {
    number: "A-1042",
    total: 86.5,
    items: [
      { title: "Notebook, dotted, A5", quantity: 2, price: 12.5 },
      { title: "Fountain pen", quantity: 1, price: 49 },
      { title: "Ink, blue-black", quantity: 1, price: 12.5 },
    ],
  },
};

/** The template, created in the bench key's workspace straight in the database (the API has no template creation). */
async function createBenchTemplate(url: string): Promise<string> {
  const handle = await openPostgres(url, 1);
  installDbHandle(handle);
  try {
    const rows = await handle.db.execute(sql`select workspace_id from api_keys where id = ${BENCH_KEY_USERNAME}`);
    const workspaceId = firstRow<{ workspace_id: string }>(rows).workspace_id;
    const template = await createTemplate({
      workspaceId,
      name: "Bench render",
      subject: "Order {{ order.number }} for {{ customer.name }}",
      bodyHtml: TEMPLATE_HTML,
    });
    return template.id;
  } finally {
    await closeDb();
  }
}

async function drive(
  url: string,
  method: "GET" | "POST",
  body?: string,
  expected = 200,
  extraHeaders: Record<string, string> = {},
) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    method,
    headers: { ...headers, ...extraHeaders },
    body,
  });
  const wrong = expected === 200 ? result.non2xx : result["2xx"];
  if (wrong > 0) throw new Error(`${url}: ${wrong} unexpected answers`);
  return { rate: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors };
}

async function main() {
  if (args.locales) {
    await runLocaleBench(args["pg-url"]!, Number(args.renders), Number(args.rounds === "2" ? "5" : args.rounds));
    return;
  }
  build(args["skip-build"]!);
  const database = await scratchPostgres(args["pg-url"]!);
  if (!database) return;
  const dataDir = tempDir();
  const server = await startServer(Number(args.port), {
    DATABASE_URL: database.url,
    DATA_DIR: dataDir.dir,
    RUN_WORKER: "false",
  });
  try {
    const templateId = await createBenchTemplate(database.url);
    const floorUrl = `${server.base}/no-such-resource`;
    const renderUrl = `${server.base}/templates/${templateId}/render`;
    const renderBody = JSON.stringify({ variables: VARIABLES });
    const check = await fetch(renderUrl, { method: "POST", headers, body: renderBody });
    if (check.status !== 200) throw new Error(`render answered ${check.status}: ${await check.text()}`);
    console.log(
      `load average at the start: ${os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(", ")}`,
    );
    console.log(
      `${CONNECTIONS} connections, ${DURATION} s per measure after a ${Math.min(DURATION, 3)} s warm-up; PostgreSQL, RUN_WORKER=false`,
    );
    for (let round = 1; round <= Number(args.rounds); round++) {
      const warm = { ...args, duration: Math.min(DURATION, 3) };
      await autocannon({
        url: floorUrl,
        connections: CONNECTIONS,
        duration: warm.duration,
        headers: { ...headers, ...THROUGH_NEXT },
      });
      const floor = await drive(floorUrl, "GET", undefined, 404, THROUGH_NEXT);
      const direct404 = await drive(floorUrl, "GET", undefined, 404);
      await autocannon({
        url: renderUrl,
        connections: CONNECTIONS,
        duration: warm.duration,
        method: "POST",
        headers,
        body: renderBody,
      });
      const render = await drive(renderUrl, "POST", renderBody);
      console.log(
        `round ${round}: floor (Next.js's JSON 404 of an unknown /api/v1 path) ${floor.rate.toFixed(0)} req/s, p50 ${floor.p50} ms, p99 ${floor.p99} ms, ${floor.errors} errors (timeouts)`,
      );
      console.log(
        `round ${round}: the same 404 past Next.js's routing (not the floor) ${direct404.rate.toFixed(0)} req/s, p50 ${direct404.p50} ms, p99 ${direct404.p99} ms: ${((direct404.rate / floor.rate) * 100).toFixed(0)} % of the floor`,
      );
      console.log(
        `round ${round}: POST /templates/:id/render ${render.rate.toFixed(0)} req/s, p50 ${render.p50} ms, p99 ${render.p99} ms, ${render.errors} errors: ${((render.rate / floor.rate) * 100).toFixed(0)} % of the floor`,
      );
    }
    console.log(
      `load average at the end: ${os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(", ")}`,
    );
  } finally {
    await server.stop();
    await database.drop();
    dataDir.remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
