/**
 * The server side of `npm run bench:smtp`, in a process of its own so its CPU time is the service's
 * alone: the database (DATABASE_URL, or PGlite under DATA_DIR), the SMTP submission listener and the
 * real POST /v1/email_messages route handler behind a plain node:http server (no Next.js routing:
 * both doors then cost what their own code costs). No workers run: acceptance is measured, not delivery.
 * Tells the parent its ports over IPC and answers "cpu" with process.cpuUsage().
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { getDbHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { getQueue } from "@/lib/records/queue/queue";
import { seedDemo } from "@/lib/flows/setup/seed-demo";
import { startSubmissionServer } from "@/lib/entry/submission/start-submission-server";
import { POST } from "@/app/api/v1/email_messages/handlers";
import { BENCH_KEY } from "./server";

async function main() {
  await migrateDatabase(await getDbHandle());
  await getQueue();
  await seedDemo({ apiKey: BENCH_KEY, onlyIfEmpty: true });
  const smtp = await startSubmissionServer({
    SMTP_SUBMISSION_PORT: 0,
    SMTP_SUBMISSION_HOST: "127.0.0.1",
    SMTP_ALLOW_INSECURE_AUTH: true,
  });
  const api = http.createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers))
      if (typeof value === "string") headers.set(name, value);
    const request = new Request(`http://127.0.0.1${incoming.url}`, {
      method: incoming.method,
      headers,
      body: Buffer.concat(chunks),
    });
    const response = await POST(request, { params: Promise.resolve({}) });
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  });
  api.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  process.on("message", (message) => {
    if (message === "cpu") process.send!({ cpu: process.cpuUsage() });
  });
  process.send!({ ready: true, smtpPort: smtp!.port, apiPort: (api.address() as AddressInfo).port });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
