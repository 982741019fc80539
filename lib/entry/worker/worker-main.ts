import "../../../server/check-node.mjs"; // first: a clear error on an unsupported Node
import "server-only";
import { getDeliveryProvider } from "@/lib/delivery/registry";
import { closeSmtpTransport } from "@/lib/delivery/providers/smtp/smtp-provider";
import { runStandalone } from "@/lib/entry/process/run-standalone";
import { startWorkers, stopWorkers } from "./worker";

runStandalone({
  command: "npm run worker",
  noun: "worker",
  embeddedHint:
    "Without it the data lives in an embedded database that only the server process may open, and the server runs the workers itself.",
  healthPort: (config) => config.WORKER_HEALTH_PORT,
  start: async (config) => {
    getDeliveryProvider(); // a misconfigured provider stops here, not on every job
    await startWorkers({ concurrency: config.WORKER_CONCURRENCY });
    return async () => {
      // Lets running deliveries finish; an unfinished one is retried by another worker after expiry.
      await stopWorkers();
      await closeSmtpTransport();
    };
  },
});
