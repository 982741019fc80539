import "../../../server/check-node.mjs"; // first: a clear error on an unsupported Node
import "server-only";
import { runStandalone } from "@/lib/entry/process/run-standalone";
import { startConfiguredInbound } from "./start-inbound";

// The inbound listener as its own process; any number may run behind the MX: each mail and report is stored once.
runStandalone({
  command: "npm run inbound",
  noun: "inbound listener",
  tracingName: "inbound",
  embeddedHint:
    "Without it the data lives in an embedded database that only the server process may open: the server runs the listener itself (127.0.0.1:2525 unless SMTP_INBOUND_PORT says otherwise).",
  misconfigured: (config) =>
    config.SMTP_INBOUND_PORT === undefined
      ? "npm run inbound needs SMTP_INBOUND_PORT (e.g. 25); it takes mail for inbound domains and BOUNCE_DOMAIN."
      : null,
  healthPort: (config) => config.INBOUND_HEALTH_PORT,
  start: async (config) => {
    const inbound = await startConfiguredInbound(config);
    // Stops accepting; reports being received are recorded (or answered 451) before connections close.
    return async () => void (await inbound?.close());
  },
});
