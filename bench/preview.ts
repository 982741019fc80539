/**
 * npm run bench:preview [-- --skip-build --runs 300 --port 3291]
 *
 * The template editor's live preview round trip: POST /templates/preview of a ~5 KB Liquid template
 * (loops, conditions, filters) with sample data, over HTTP with a dashboard session cookie, against the
 * built app started on a scratch database of the PostgreSQL server (the script creates the signed-in
 * user there; the embedded database could only be opened by the server). Each request is a different
 * draft, as while typing, so the renderer parses anew every time. Prints p50/p95/p99 of the round trip
 * and of the server's renderMs. A benchmark, not a test: it prints figures.
 */
import { parseArgs } from "node:util";
import { encode } from "next-auth/jwt";
import { closeDb, installDbHandle, openPostgres } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { createUser } from "@/lib/domain/users/create-user";
import { createWorkspace } from "@/lib/domain/workspaces/create-workspace";
import { seedDemo } from "@/lib/flows/setup/seed-demo";
import { BENCH_KEY, build, percentile, scratchPostgres, startServer, tempDir } from "./support/server";

const { values: args } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    runs: { type: "string", default: "300" },
    "pg-url": {
      type: "string",
      default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
    port: { type: "string", default: "3291" },
  },
});
const RUNS = Number(args.runs);
const USER = { email: "bench-editor@example.com", password: "bench-password-bench" };
const BENCH_AUTH_SECRET = "bench-auth-secret-bench-auth-secret-0002";

/** A realistic order confirmation: header, a loop over line items with filters, conditions, footer. */
function template(variant: number) {
  const row = `
        <tr>
          <td style="padding:8px 0;border-bottom:1px solid #eee">{{ item.title | escape }}{% if item.variant %}<br><small style="color:#666">{{ item.variant }}</small>{% endif %}</td>
          <td style="padding:8px 0;border-bottom:1px solid #eee;text-align:center">{{ item.quantity }}</td>
          <td style="padding:8px 0;border-bottom:1px solid #eee;text-align:right">{{ item.price | times: item.quantity | currency: order.currency, "en-US" }}</td>
        </tr>`;
  const body = `<!doctype html>
<html><body style="margin:0;background:#f5f5f5;font-family:Helvetica,Arial,sans-serif">
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
    <table role="presentation" width="600" cellpadding="0" cellspacing="0" style="background:#fff;border-radius:8px">
      <tr><td style="padding:32px 32px 8px"><h1 style="margin:0;font-size:24px;color:#111">Thanks for your order, {{ customer.firstName | default: "there" }}!</h1></td></tr>
      <tr><td style="padding:0 32px 16px;color:#444;font-size:15px;line-height:22px">
        Order <strong>#{{ order.number }}</strong> placed on {{ order.placedAt | date: "%B %-d, %Y" }}.
        {% if order.items.size > 3 %}That's {{ order.items.size }} items{% else %}Here is what you ordered{% endif %}:
      </td></tr>
      <tr><td style="padding:0 32px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="font-size:14px;color:#222">
        <tr><th align="left">Item</th><th>Qty</th><th align="right">Total</th></tr>
        {% for item in order.items %}${row}
        {% endfor %}
      </table></td></tr>
      <tr><td style="padding:16px 32px;text-align:right;font-size:15px">
        Subtotal: {{ order.subtotal | currency: order.currency, "en-US" }}<br>
        {% if order.discount > 0 %}Discount: −{{ order.discount | currency: order.currency, "en-US" }}<br>{% endif %}
        Shipping: {% if order.shipping == 0 %}free{% else %}{{ order.shipping | currency: order.currency, "en-US" }}{% endif %}<br>
        <strong>Total: {{ order.total | currency: order.currency, "en-US" }}</strong>
      </td></tr>
      <tr><td style="padding:16px 32px;color:#444;font-size:14px;line-height:20px">
        Shipping to:<br>{{ customer.name }}<br>{{ customer.address.line1 }}<br>{% if customer.address.line2 %}{{ customer.address.line2 }}<br>{% endif %}{{ customer.address.postcode }} {{ customer.address.city }}<br>{{ customer.address.country | upcase }}
      </td></tr>
      <tr><td style="padding:16px 32px 32px"><a href="https://shop.example.com/orders/{{ order.number | url_encode }}?utm_source=email" style="display:inline-block;background:#4f46e5;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none">Track your {{ order.items.size | pluralize: "item", "items" }}</a></td></tr>
      {% if recommendations.size > 0 %}
      <tr><td style="padding:16px 32px 8px"><h2 style="margin:0;font-size:18px;color:#111">You may also like</h2></td></tr>
      <tr><td style="padding:0 32px 16px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr>
        {% for product in recommendations limit: 3 %}
        <td width="33%" valign="top" style="padding:8px;font-size:13px;color:#333;line-height:18px">
          <a href="https://shop.example.com/p/{{ product.slug }}?utm_source=email&amp;utm_campaign=order-{{ order.number }}" style="color:#111;text-decoration:none">
            <img src="https://cdn.example.com/p/{{ product.slug }}.jpg" width="160" height="160" alt="{{ product.title | escape }}" style="display:block;border-radius:4px;border:0">
            <strong>{{ product.title | truncate: 40 }}</strong><br>
            {% if product.salePrice %}<span style="color:#b91c1c">{{ product.salePrice | currency: order.currency, "en-US" }}</span> <s style="color:#888">{{ product.price | currency: order.currency, "en-US" }}</s>{% else %}{{ product.price | currency: order.currency, "en-US" }}{% endif %}
          </a>
        </td>
        {% endfor %}
      </tr></table></td></tr>
      {% endif %}
      <tr><td style="padding:16px 32px;color:#444;font-size:13px;line-height:19px;border-top:1px solid #eee">
        <strong>Returns:</strong> unused items can be returned within 30 days of delivery. Start a return from your
        <a href="https://shop.example.com/account/orders/{{ order.number }}" style="color:#4f46e5">order page</a>; we email you a prepaid label.
        {% case order.paymentMethod %}{% when "card" %}Your card was charged when the order shipped.{% when "invoice" %}Your invoice is due in 14 days.{% else %}Payment received, thank you.{% endcase %}
      </td></tr>
      <tr><td style="padding:16px 32px;color:#888;font-size:12px;border-top:1px solid #eee">
        You receive this email because you ordered at Example Shop. Questions? Reply to this email or write to support@example.com.
        {% comment %}draft ${variant}{% endcomment %}
        <br><a href="{{ unsubscribeUrl }}" style="color:#888">Unsubscribe</a>
      </td></tr>
    </table>
  </td></tr></table>
</body></html>`;
  return {
    subject:
      "Order #{{ order.number }}: {{ order.items.size }} {{ order.items.size | pluralize: 'item', 'items' }} on the way",
    bodyHtml: body,
    fromAddress: "Example Shop <orders@example.com>",
    replyTo: "support@example.com",
    strict: false,
    variables: {
      recommendations: [
        { slug: "brass-pen-holder", title: "Brass pen holder", price: 24 },
        { slug: "leather-desk-mat", title: "Leather desk mat, large, cognac brown", price: 89, salePrice: 69 },
        { slug: "letter-tray", title: "Oak letter tray", price: 42 },
      ],
      customer: {
        firstName: "Ada",
        name: "Ada Lovelace",
        address: { line1: "12 St James's Square", line2: "", postcode: "SW1Y 4JH", city: "London", country: "gb" },
      },
      order: {
        number: `A-${1000 + variant}`,
        placedAt: "2026-01-15T10:00:00Z",
        currency: "EUR",
        subtotal: 184.5,
        discount: 10,
        shipping: 0,
        total: 174.5,
        paymentMethod: "card",
        items: [
          { title: "Walnut desk organiser", variant: "Large", quantity: 1, price: 64.5 },
          { title: "Notebook <A5>", variant: "Dotted", quantity: 3, price: 12 },
          { title: "Fountain pen", variant: null, quantity: 1, price: 58 },
          { title: "Ink bottle", variant: "Blue-black", quantity: 2, price: 13 },
        ],
      },
    },
  };
}

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p95 ${percentile(sorted, 0.95).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms`;
}

async function measure(origin: string, cookie: string) {
  const preview = async (variant: number) => {
    const started = performance.now();
    const response = await fetch(`${origin}/templates/preview`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(template(variant)),
    });
    const body = (await response.json()) as {
      data?: { renderMs: number; problems: unknown[]; rendered: { bodyHtml: string } | null };
    };
    const elapsed = performance.now() - started;
    if (response.status !== 200 || !body.data?.rendered || body.data.problems.length > 0)
      throw new Error(`preview answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
    return { elapsed, renderMs: body.data.renderMs };
  };
  for (let i = 0; i < 20; i++) await preview(-i - 1); // warm-up: JIT, connection, route compilation
  const roundTrips: number[] = [];
  const renders: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const { elapsed, renderMs } = await preview(i);
    roundTrips.push(elapsed);
    renders.push(renderMs);
  }
  const size = Buffer.byteLength(template(0).bodyHtml);
  console.log(
    `POST /templates/preview, ${(size / 1024).toFixed(1)} KB template, a different draft each time, ${RUNS} sequential requests after 20 warm-up:`,
  );
  console.log(`  round trip: ${stats(roundTrips)}`);
  console.log(`  renderMs (server): ${stats(renders)}`);
}

async function main() {
  const database = await scratchPostgres(args["pg-url"]!);
  if (!database) return;
  const dataDir = tempDir();
  try {
    const handle = await openPostgres(database.url, 2);
    installDbHandle(handle);
    await migrateDatabase(handle);
    // The server's health check signs in with the bench key; at boot it seeds the demo only into an empty database.
    await seedDemo({ apiKey: BENCH_KEY });
    const workspace = await createWorkspace({ name: "Bench preview", testMode: false });
    const user = await createUser({ ...USER, workspaceId: workspace.id, role: "MEMBER" });
    build(args["skip-build"]!);
    const port = Number(args.port);
    const server = await startServer(port, {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir.dir,
      AUTH_SECRET: BENCH_AUTH_SECRET,
      RUN_WORKER: "false",
      APP_URL: `http://127.0.0.1:${port}`,
    });
    try {
      // The cookie a password sign-in would set, minted with the server's secret (sign-in is a throttled server action).
      const token = await encode({
        token: { sub: user.id, email: USER.email },
        secret: BENCH_AUTH_SECRET,
        salt: "authjs.session-token",
      });
      await measure(new URL(server.base).origin, `authjs.session-token=${token}`);
    } finally {
      await server.stop();
    }
  } finally {
    await closeDb();
    await database.drop();
    dataDir.remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
