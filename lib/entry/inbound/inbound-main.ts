import "../../../server/check-node.mjs"; // first: a clear error on an unsupported Node
import "server-only";
import { runStandalone } from "@/lib/entry/process/run-standalone";
import { startConfiguredInbound } from "./start-inbound";

// The bounce listener as its own process; any number may run behind the MX, as each report is recorded idempotently.
runStandalone({
  command: "npm run inbound",
  noun: "inbound listener",
  embeddedHint:
    "Without it the data lives in an embedded database that only the server process may open: set SMTP_INBOUND_PORT for the server and it runs the listener itself.",
  misconfigured: (config) =>
    config.SMTP_INBOUND_PORT === undefined || !config.BOUNCE_DOMAIN
      ? "npm run inbound needs SMTP_INBOUND_PORT (e.g. 25) and BOUNCE_DOMAIN (e.g. bounces.example.com)."
      : null,
  healthPort: (config) => config.INBOUND_HEALTH_PORT,
  start: async (config) => {
    const inbound = await startConfiguredInbound(config);
    // Stops accepting; reports being received are recorded (or answered 451) before connections close.
    return async () => void (await inbound?.close());
  },
});
