/**
 * A second process for the short-lived cache's bound (lib/domain/api-keys/auth-cache-bound.test.ts): run as
 * `node --conditions=react-server --import tsx lib/testing/auth-probe.ts` with DATABASE_URL and
 * PROBE_AUTHORIZATION set, it authenticates that header every 20 ms, as an app server would on each
 * request, and prints one JSON line per attempt: when it started and whether the key was accepted.
 */
import { authenticateApiKey } from "@/lib/domain/api-keys/authenticate-api-key";
import { closeDb } from "@/db/client";

let running = true;
process.on("SIGTERM", () => (running = false));

async function main() {
  const authorization = process.env.PROBE_AUTHORIZATION ?? null;
  while (running) {
    const started = Date.now();
    let accepted = true;
    try {
      await authenticateApiKey(authorization);
    } catch {
      accepted = false;
    }
    process.stdout.write(`${JSON.stringify({ started, accepted })}\n`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await closeDb();
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
